-- Claiming and committing an attempt write each operation row anew, so every index of operations and attempts is
-- written twice per attempt. Two of them carried nothing for almost every row:
-- * the uniqueness of `corrects` (one correction per operation) was a full index holding a NULL for every operation
--   that corrects nothing; a partial index keeps the same guarantee (23505 for the second correction) with an entry
--   for corrections only;
-- * attempts_operation_idx (operation_id, attempt, started_at) duplicated attempts_newest_by_operation
--   (operation_id, id) for every read by operation: an operation has a handful of attempt rows, sorted in memory.
ALTER TABLE operations DROP CONSTRAINT operations_corrects_key;
CREATE UNIQUE INDEX operations_corrects_key ON operations (corrects) WHERE corrects IS NOT NULL;

DROP INDEX attempts_operation_idx;
