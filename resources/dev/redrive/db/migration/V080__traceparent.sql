-- The W3C trace context of the caller's span, from a dispatch's optional traceparent field: retries, redrives and
-- sweeps rebuild their dispatch from the operation's record, so the record keeps it for every later attempt.
ALTER TABLE operations ADD COLUMN traceparent text;
-- The trace of the operator who issued a redrive (the console's or CLI's context when an SDK is installed).
ALTER TABLE redrive_commands ADD COLUMN operator_traceparent text;
