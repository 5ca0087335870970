-- A read-only role per namespace, "<namespace>_viewer": operators who may look at the DLQ but not decide connect with
-- a login that is a member of it (GRANT redrive_viewer TO alice). It reads every table, including those later
-- migrations create; every decision it attempts is refused by the database itself, whatever the client does.
-- Creating a role needs CREATEROLE: without it the migration goes on and says so, and viewers are set up by hand.
DO $$
DECLARE
    namespace text := '${flyway:defaultSchema}';
    viewer text := namespace || '_viewer';
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = viewer) THEN
        EXECUTE format('CREATE ROLE %I NOLOGIN', viewer);
    END IF;
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', namespace, viewer);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO %I', namespace, viewer);
    EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT ON TABLES TO %I', namespace, viewer);
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'no viewer role for namespace %: % (grant CREATEROLE to the migrating user, or create it by hand)',
        namespace, SQLERRM;
END $$;
