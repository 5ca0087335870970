-- What a durable batch decided item by item, written in the transaction of the item's chunk: the decision as it was
-- taken (DONE, BLOCKED and by which preconditions, ALREADY_DECIDED, REFUSED) and the redrive command it issued. What
-- happened after a redrive is not stored here: it is read from the operation and its DLQ entries when asked
-- (dev.redrive.triage.decision.BatchOutcomes), so it never goes stale.
CREATE TABLE redrive_batch_items (
    batch_id     bigint NOT NULL REFERENCES redrive_batches (id),
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    operation_id text COLLATE "C",
    dlq_entry_id bigint,
    decision     text NOT NULL CHECK (decision IN ('DONE', 'BLOCKED', 'ALREADY_DECIDED', 'REFUSED')),
    command_id   uuid,
    blocked_by   text[] NOT NULL DEFAULT '{}',
    message      text,
    decided_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (batch_id, seq)
);

DO $$
DECLARE
    namespace text := '${flyway:defaultSchema}';
    operator text := namespace || '_operator';
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = operator) THEN
        EXECUTE format('GRANT SELECT, INSERT ON %I.redrive_batch_items TO %I', namespace, operator);
        EXECUTE format('GRANT USAGE ON ALL SEQUENCES IN SCHEMA %I TO %I', namespace, operator);
    END IF;
END $$;

-- A message can quote another operator's reason ("already decided by bob (DISCARDED: ...)").
INSERT INTO viewer_masked_columns (table_name, column_name) VALUES ('redrive_batch_items', 'message');
CALL refresh_viewer_masks();
