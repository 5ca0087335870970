-- The summary's trigger functions run as the namespace's owner (V160), so that every login's writes keep the counts,
-- and kept PostgreSQL's default EXECUTE for PUBLIC. Any login that may use the schema (a viewer) could therefore attach
-- one to a temporary table of its own and run it as the owner: TRUNCATE of that table wiped the summary, an INSERT of
-- made-up rows changed the counts the DLQ browser and queue health show. A trigger function needs EXECUTE only to be
-- attached, never when it fires: the triggers on dlq_entries go on firing for every login.
REVOKE EXECUTE ON FUNCTION dlq_summary_on_insert() FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION dlq_summary_on_delete() FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION dlq_summary_on_update() FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION dlq_summary_on_truncate() FROM PUBLIC;
