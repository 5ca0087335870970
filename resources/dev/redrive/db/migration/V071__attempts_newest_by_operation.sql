-- The claim reads each operation's newest attempt row (ORDER BY id DESC LIMIT 1). With only the primary key and
-- (operation_id, attempt, started_at), PostgreSQL walks the primary key backwards filtering on operation_id, and for
-- an operation without attempts yet (every new one) that reads the whole table: 10 ms per operation at 12,000
-- attempts in the chaos soak, growing with every attempt, until the claims could no longer keep up with the
-- dispatches. This index answers it with one probe.
CREATE INDEX attempts_newest_by_operation ON attempts (operation_id, id);
