-- The functions that enforce who did what (the login stamps, the append-only audit log, the requester-is-not-approver
-- rule) and the DLQ summary's functions, which run as the schema owner, name tables and operators without a schema.
-- Resolved through the caller's search_path, a login able to create objects in a schema it puts first (PostgreSQL 13
-- and 14 let every login create in "public") could put its own "=" or its own dlq_summary_add in their place, and
-- have them run inside these checks, or as the owner. Each now resolves names in pg_catalog, then in its namespace.
ALTER FUNCTION audit_log_is_append_only() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION stamp_db_login() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION stamp_decided_login() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION stamp_approval_logins() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION stamp_policy_login() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION guard_decision_request() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION dlq_summary_add(dlq_summary_delta[]) SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION dlq_summary_remove(dlq_summary_delta[]) SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION dlq_summary_on_insert() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION dlq_summary_on_delete() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION dlq_summary_on_update() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER FUNCTION dlq_summary_on_truncate() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
ALTER PROCEDURE refresh_viewer_masks() SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp;
