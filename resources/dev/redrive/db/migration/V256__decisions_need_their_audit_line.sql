-- No decision without its audit line, even by SQL. The operator role must be able to write what a decision writes (an
-- operator's own login makes the change, so the database can stamp who decided), which also lets it write those
-- columns with a plain UPDATE and no audit line. These constraint triggers close that: at commit, every decided change
-- made in the transaction needs an audit line written in the same transaction about the same subject (its xmin is the
-- transaction's id), or the commit is refused with insufficient_privilege. The application's paths write both in one
-- transaction already. The namespace's owner (the migrating login, the worker's) is exempt: it owns the triggers and
-- could drop them, and it moves operations for its own reasons.
--   dlq_entries  a change of the decision columns                  needs a line naming the entry
--   operations   a move out of DEAD_LETTERED (redrive, resolve,    needs a line naming the operation
--                discard, correction) or into DISCARDED
--   redrive_commands  a new command                                needs a line naming the command
--   approvals    a grant or a revocation                           needs a line naming the approval in its details
-- The WHEN clauses keep every other change free of the check: a worker's claims and commits never queue one.
-- Names resolve in pg_catalog first (see V210): a login that may create objects could not shadow "=" or a table here.
CREATE FUNCTION decision_needs_audit_line() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp AS $$
DECLARE
    owner_role oid := (SELECT nspowner FROM pg_namespace WHERE nspname = TG_TABLE_SCHEMA);
    audited boolean;
BEGIN
    IF pg_has_role(session_user, owner_role, 'MEMBER') THEN
        RETURN NULL;
    END IF;
    -- One branch per table: plpgsql resolves NEW's fields only in the branch it runs.
    IF TG_TABLE_NAME = 'dlq_entries' THEN
        audited := EXISTS (SELECT 1 FROM audit_log a
                            WHERE a.dlq_entry_id = NEW.id AND a.xmin = pg_current_xact_id()::xid);
    ELSIF TG_TABLE_NAME = 'operations' THEN
        audited := EXISTS (SELECT 1 FROM audit_log a
                            WHERE a.operation_id = NEW.operation_id AND a.xmin = pg_current_xact_id()::xid);
    ELSIF TG_TABLE_NAME = 'redrive_commands' THEN
        audited := EXISTS (SELECT 1 FROM audit_log a
                            WHERE a.command_id = NEW.command_id AND a.xmin = pg_current_xact_id()::xid);
    ELSE
        audited := EXISTS (SELECT 1 FROM audit_log a
                            WHERE a.details ->> 'approval_id' = NEW.approval_id AND a.xmin = pg_current_xact_id()::xid
                              AND a.action IN ('approval_granted', 'approval_revoked'));
    END IF;
    IF NOT audited THEN
        RAISE EXCEPTION '% of %.% by % has no audit line in its transaction: decisions are made with redrive, resolve, '
                        'discard, correct or approval commands, which write one', lower(TG_OP), TG_TABLE_SCHEMA,
                        TG_TABLE_NAME, session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NULL;
END $$;

-- The operation_id index serves the operations check; the entry and command checks get theirs here (partial: only
-- lines about an entry or a command).
CREATE INDEX IF NOT EXISTS audit_log_command_idx ON audit_log (command_id) WHERE command_id IS NOT NULL;

CREATE CONSTRAINT TRIGGER dlq_entries_decision_audited
    AFTER UPDATE OF decision_state, decided_by, decided_at, decision_reason, superseded_by ON dlq_entries
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.decision_state IS DISTINCT FROM NEW.decision_state OR OLD.decided_by IS DISTINCT FROM NEW.decided_by
          OR OLD.decided_at IS DISTINCT FROM NEW.decided_at OR OLD.decision_reason IS DISTINCT FROM NEW.decision_reason
          OR OLD.superseded_by IS DISTINCT FROM NEW.superseded_by)
    EXECUTE FUNCTION decision_needs_audit_line();

CREATE CONSTRAINT TRIGGER operations_decision_audited
    AFTER UPDATE OF status ON operations
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status AND (OLD.status = 'DEAD_LETTERED' OR NEW.status = 'DISCARDED'))
    EXECUTE FUNCTION decision_needs_audit_line();

CREATE CONSTRAINT TRIGGER redrive_commands_audited
    AFTER INSERT ON redrive_commands
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    EXECUTE FUNCTION decision_needs_audit_line();

CREATE CONSTRAINT TRIGGER approvals_audited
    AFTER INSERT OR UPDATE OF revoked_at, revoked_by ON approvals
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    EXECUTE FUNCTION decision_needs_audit_line();
