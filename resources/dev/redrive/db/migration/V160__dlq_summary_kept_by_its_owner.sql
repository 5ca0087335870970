-- The DLQ summary is derived data: the statement triggers on dlq_entries keep it, whoever writes the entries (a
-- worker, an operator's login deciding entries, the schema owner). Their functions run as the schema owner, so a role
-- allowed to decide entries needs no grant on the summary, and nobody can write the summary except through them:
-- the functions that apply a delta are not callable by anyone else.
ALTER FUNCTION dlq_summary_on_insert() SECURITY DEFINER;
ALTER FUNCTION dlq_summary_on_delete() SECURITY DEFINER;
ALTER FUNCTION dlq_summary_on_update() SECURITY DEFINER;
ALTER FUNCTION dlq_summary_on_truncate() SECURITY DEFINER;
REVOKE EXECUTE ON FUNCTION dlq_summary_add(dlq_summary_delta[]) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION dlq_summary_remove(dlq_summary_delta[]) FROM PUBLIC;
