-- The W3C trace id (32 lower-case hex) of the dispatch's traceparent, so that an entry can be found by the trace id a
-- producer's tracer shows even when the dispatch carried only a traceparent and no trace_id. Filled when the entry is
-- written (from the operation's traceparent, or a raw message's valid one); no default, so adding it rewrites nothing.
ALTER TABLE dlq_entries ADD COLUMN w3c_trace_id text COLLATE "C";

-- Only entries of operations that were dispatched with a traceparent are touched.
UPDATE dlq_entries d
   SET w3c_trace_id = substring(o.traceparent FROM 4 FOR 32)
  FROM operations o
 WHERE o.operation_id = d.operation_id AND o.traceparent IS NOT NULL;

CREATE INDEX dlq_w3c_trace_idx ON dlq_entries (w3c_trace_id) WHERE w3c_trace_id IS NOT NULL;

-- The viewer's masked view of dlq_entries and its column grants take the new column.
CALL refresh_viewer_masks();
