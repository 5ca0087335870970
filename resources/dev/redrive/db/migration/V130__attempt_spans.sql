-- The OpenTelemetry span of each attempt (redrive.attempt), when the worker runs with an SDK that exports it: the
-- console's "open in tracer", op show and reports go straight to the attempt. Null when nothing was exported (no SDK,
-- a span not sampled) and for attempts written before this version.
ALTER TABLE attempts ADD COLUMN trace_id text, ADD COLUMN span_id text;
