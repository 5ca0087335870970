-- An idempotency key belongs to one operation. A second operation id carrying a key already bound to another is a
-- conflict (the worker dead-letters it as idempotency_conflict), never a replay of the other operation's result.
DROP INDEX operations_idempotency_key_idx;
CREATE UNIQUE INDEX operations_idempotency_key_key ON operations (idempotency_key);
