-- Operation ids, run ids and idempotency keys are identifiers, compared and ordered as bytes. In a database whose
-- collation is not C (C.UTF-8, en_US.UTF-8, ...) every comparison of them went through the C library's strcoll:
-- each btree insert and look-up of the worker's hot path (the primary keys of operations and runs, the run and
-- idempotency-key indexes, the attempts' index by operation and their foreign-key check) paid for it. COLLATE "C"
-- compares them with memcmp. The order does not change for these ASCII identifiers (the lock order of OperationStore
-- was by bytes already); a comparison with a column or value of the database's collation is made in "C", which is
-- the same equality.
--
-- Every column that holds one of these identifiers changes together, so that joins between them keep using their
-- indexes. The indexes on them are rebuilt (the table is not rewritten); the masked views that read these tables are
-- dropped first (a view pins its columns' collation) and recreated by refresh_viewer_masks().
DROP VIEW IF EXISTS "${flyway:defaultSchema}_masked".runs, "${flyway:defaultSchema}_masked".operations,
    "${flyway:defaultSchema}_masked".attempts, "${flyway:defaultSchema}_masked".dlq_entries,
    "${flyway:defaultSchema}_masked".reconciliations, "${flyway:defaultSchema}_masked".redrive_commands,
    "${flyway:defaultSchema}_masked".audit_log;

ALTER TABLE runs ALTER COLUMN run_id TYPE text COLLATE "C";
ALTER TABLE operations
    ALTER COLUMN operation_id TYPE text COLLATE "C",
    ALTER COLUMN run_id TYPE text COLLATE "C",
    ALTER COLUMN idempotency_key TYPE text COLLATE "C",
    ALTER COLUMN corrects TYPE text COLLATE "C";
ALTER TABLE attempts ALTER COLUMN operation_id TYPE text COLLATE "C";
ALTER TABLE reconciliations ALTER COLUMN operation_id TYPE text COLLATE "C";
ALTER TABLE redrive_commands ALTER COLUMN operation_id TYPE text COLLATE "C";
ALTER TABLE audit_log ALTER COLUMN operation_id TYPE text COLLATE "C";
ALTER TABLE dlq_entries
    ALTER COLUMN operation_id TYPE text COLLATE "C",
    ALTER COLUMN run_id TYPE text COLLATE "C",
    ALTER COLUMN idempotency_key TYPE text COLLATE "C",
    ALTER COLUMN superseded_by TYPE text COLLATE "C";

CALL refresh_viewer_masks();
