-- Operation ids, run ids and idempotency keys are identifiers, compared and ordered as bytes. In a database whose
-- collation is not C (C.UTF-8, en_US.UTF-8, ...) every comparison of them went through the C library's strcoll:
-- each btree insert and look-up of the worker's hot path (the primary keys of operations and runs, the run and
-- idempotency-key indexes, the attempts' index by operation and their foreign-key check) paid for it. COLLATE "C"
-- compares them with memcmp. Under a code-point collation such as C.UTF-8 their order does not change (the lock order
-- of OperationStore was by bytes already); under a language collation such as en_US.UTF-8, ids that differ in case or
-- punctuation now sort by bytes wherever they are listed in id order. A comparison with a column or value of the
-- database's collation is made in "C", which is the same equality.
--
-- Every column of the namespace's own tables that holds one of these identifiers changes together, so that joins
-- between them keep using their indexes (the demo tools' tables keep the database's collation: they are looked up by
-- value, never joined with these). The indexes on them are rebuilt (the tables are not rewritten). The masked views
-- that read these tables are dropped first (a view pins its columns' collation) and recreated by
-- refresh_viewer_masks(); a view of one's own on these columns makes this migration fail, rolled back whole: drop it,
-- migrate, create it again.
--
-- All the tables are locked first, operations first, as a worker's claim takes them. Taken ALTER by ALTER, the lock on
-- runs came first, and a claim holding operations while it waited for runs deadlocked with the migration (seen with a
-- claim-like load running). A transaction that takes these tables in another order can still deadlock with it;
-- PostgreSQL then aborts one of the two, and an aborted migration is rolled back whole and can simply run again.
LOCK TABLE operations, runs, attempts, redrive_commands, dlq_entries, reconciliations, audit_log IN ACCESS EXCLUSIVE MODE;

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

-- Changing a column's collation drops its statistics (and V250's in_flight has none yet); the planner would guess until
-- autovacuum next analyzes these tables, which for a large, mostly finished table can be a long time.
ANALYZE runs, operations, attempts, reconciliations, redrive_commands, audit_log, dlq_entries;
