-- The stream entry a lease was claimed for: a duplicate delivery of the same operation under another entry id can
-- be acked, while the lease holder's own entry must stay pending so that it is re-claimed if the holder dies.
ALTER TABLE operations ADD COLUMN lease_delivery_id text;

-- Deliveries that crashed the handler before the message was dead-lettered (poison messages): delivery id, count,
-- consumer, when, and the error each delivery died of.
ALTER TABLE dlq_entries ADD COLUMN delivery_history jsonb NOT NULL DEFAULT '[]';
