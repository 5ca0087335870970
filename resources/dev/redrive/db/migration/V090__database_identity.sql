-- Who decided is the database login, written by the database itself: a trigger sets it from session_user, the login
-- that opened the connection (SET ROLE does not change it), whatever the statement says. The name an operator types
-- (--operator, the console's profile) stays beside it as a display name, but it is the login that proves who acted.

ALTER TABLE audit_log ADD COLUMN db_login text;
ALTER TABLE redrive_commands ADD COLUMN db_login text;
ALTER TABLE reconciliations ADD COLUMN db_login text;
ALTER TABLE approvals ADD COLUMN granted_login text, ADD COLUMN revoked_login text;
ALTER TABLE dlq_entries ADD COLUMN decided_login text;

CREATE FUNCTION stamp_db_login() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.db_login := session_user;
    RETURN NEW;
END $$;

CREATE TRIGGER audit_log_db_login BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION stamp_db_login();
CREATE TRIGGER redrive_commands_db_login BEFORE INSERT ON redrive_commands
    FOR EACH ROW EXECUTE FUNCTION stamp_db_login();
CREATE TRIGGER reconciliations_db_login BEFORE INSERT ON reconciliations
    FOR EACH ROW EXECUTE FUNCTION stamp_db_login();

-- An entry's decision, and an approval's grant and revocation, are updates of a row: the login is stamped when the
-- decision or the revocation changes, and can be set by nobody else.
CREATE FUNCTION stamp_decided_login() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.decided_login := CASE WHEN NEW.decided_by IS NULL THEN NULL ELSE session_user END;
    ELSIF NEW.decided_by IS DISTINCT FROM OLD.decided_by OR NEW.decision_state IS DISTINCT FROM OLD.decision_state THEN
        NEW.decided_login := CASE WHEN NEW.decided_by IS NULL THEN NULL ELSE session_user END;
    ELSE
        NEW.decided_login := OLD.decided_login;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER dlq_entries_decided_login BEFORE INSERT OR UPDATE ON dlq_entries
    FOR EACH ROW EXECUTE FUNCTION stamp_decided_login();

CREATE FUNCTION stamp_approval_logins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.granted_login := session_user;
    ELSE
        NEW.granted_login := OLD.granted_login;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.revoked_at IS NOT DISTINCT FROM OLD.revoked_at THEN
        NEW.revoked_login := OLD.revoked_login;
    ELSE
        NEW.revoked_login := CASE WHEN NEW.revoked_at IS NULL THEN NULL ELSE session_user END;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER approvals_logins BEFORE INSERT OR UPDATE ON approvals
    FOR EACH ROW EXECUTE FUNCTION stamp_approval_logins();

-- A role per namespace for operators who may decide, "<namespace>_operator": it reads what a viewer reads and writes
-- only what a decision, a reconciliation or an approval writes; no DELETE anywhere, no DDL. An operator connects with
-- a login of their own that is a member of it (CREATE ROLE alice LOGIN PASSWORD '...' IN ROLE redrive_operator), so
-- the audit names them. Creating a role needs CREATEROLE: without it the migration goes on and says so.
DO $$
DECLARE
    namespace text := '${flyway:defaultSchema}';
    operator text := namespace || '_operator';
    viewer text := namespace || '_viewer';
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = operator) THEN
        EXECUTE format('CREATE ROLE %I NOLOGIN', operator);
    END IF;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = viewer) THEN
        EXECUTE format('GRANT %I TO %I', viewer, operator);
    END IF;
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', namespace, operator);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO %I', namespace, operator);
    EXECUTE format('GRANT INSERT, UPDATE ON %I.dlq_entries, %I.operations, %I.redrive_commands, %I.reconciliations, '
                   '%I.approvals, %I.tool_schemas, %I.runs TO %I', namespace, namespace, namespace, namespace,
                   namespace, namespace, namespace, operator);
    EXECUTE format('GRANT INSERT ON %I.audit_log TO %I', namespace, operator);
    EXECUTE format('GRANT USAGE ON ALL SEQUENCES IN SCHEMA %I TO %I', namespace, operator);
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'no operator role for namespace %: % (grant CREATEROLE to the migrating user, or create it by hand)',
        namespace, SQLERRM;
END $$;
