-- V251 analyzes the tables it changes. In a new namespace they are empty then, and "analyzed, 0 rows" is a statistic
-- PostgreSQL takes at its word: a statement it plans while a table is still nearly empty reads it by a sequential scan,
-- and a server-side prepared statement keeps that plan until the table is analyzed again. Where autovacuum is off,
-- that is never: a worker's claim read every attempt row of the namespace for each operation it claimed, and a drain
-- of 50,000 operations fell to about 140 per second. A table that was never analyzed is planned as having at least ten
-- pages, which makes a look-up by key an index scan from the first statement on.
--
-- TRUNCATE is what gives an empty table back its "never analyzed" state; it is done only when every one of these
-- tables is empty (a new namespace), and on all of them in one statement, because they reference one another. The
-- audit log refuses TRUNCATE (it is append-only) and keeps its statistics; the worker only appends to it. A namespace
-- created by V251 that has rows by now has its tables analyzed if their statistics still say empty.
DO $$
DECLARE
    analyzed_empty text;
BEGIN
    IF NOT EXISTS (SELECT FROM runs) AND NOT EXISTS (SELECT FROM operations) AND NOT EXISTS (SELECT FROM attempts)
       AND NOT EXISTS (SELECT FROM reconciliations) AND NOT EXISTS (SELECT FROM redrive_commands)
       AND NOT EXISTS (SELECT FROM dlq_entries) THEN
        TRUNCATE runs, operations, attempts, reconciliations, redrive_commands, dlq_entries;
        RETURN;
    END IF;
    FOR analyzed_empty IN
        SELECT c.relname FROM pg_class c
         WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = '${flyway:defaultSchema}') AND c.reltuples = 0
           AND c.relname IN ('runs', 'operations', 'attempts', 'reconciliations', 'redrive_commands', 'audit_log',
                             'dlq_entries')
    LOOP
        EXECUTE format('ANALYZE %I.%I', '${flyway:defaultSchema}', analyzed_empty);
    END LOOP;
END
$$;
