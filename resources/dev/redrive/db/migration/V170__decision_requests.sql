-- Four-eyes: a namespace policy turns the decisions it covers into requests that a second operator approves or
-- rejects. The request keeps everything needed to take the decision exactly as it was asked for; the database stamps
-- who asked and who decided (session_user, as V090 does) and refuses an approval by the login that asked.

-- The namespace's one policy row. Changed only by the schema owner: an operator who could switch the policy off could
-- approve her own decisions.
CREATE TABLE four_eyes_policy (
    one                  boolean     PRIMARY KEY DEFAULT true CHECK (one),
    enabled              boolean     NOT NULL DEFAULT false,
    -- NULL = batches are not covered by their size
    batch_over           int         CHECK (batch_over >= 0),
    corrections          boolean     NOT NULL DEFAULT false,
    -- empty = decisions are not covered by their tool
    tools                text[]      NOT NULL DEFAULT '{}',
    expire_after_seconds bigint      NOT NULL DEFAULT 86400 CHECK (expire_after_seconds > 0),
    changed_by           text,
    changed_login        text,
    changed_at           timestamptz
);
INSERT INTO four_eyes_policy DEFAULT VALUES;

CREATE FUNCTION stamp_policy_login() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed_login := session_user;
    RETURN NEW;
END $$;
CREATE TRIGGER four_eyes_policy_login BEFORE UPDATE ON four_eyes_policy
    FOR EACH ROW EXECUTE FUNCTION stamp_policy_login();

CREATE TABLE decision_requests (
    id              bigserial   PRIMARY KEY,
    kind            text        NOT NULL CHECK (kind IN ('REDRIVE', 'RESOLVE', 'DISCARD', 'CORRECT')),
    -- the items as the requester saw them: [{"operation_id", "dlq_entry_id", "seen_version"}]
    targets         jsonb       NOT NULL,
    -- how the requester named them, for people: "operation r:n:0", "group fp-1", "entries matching tool=demo.charge"
    selection       text        NOT NULL,
    -- schema_version, items_per_second, result (resolve), payload (correction)
    options         jsonb       NOT NULL DEFAULT '{}',
    reason          text        NOT NULL,
    -- the rule of the policy that made the decision a request
    covered_by      text        NOT NULL,
    requested_by    text        NOT NULL,
    requested_login text,
    requested_at    timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,
    state           text        NOT NULL DEFAULT 'PENDING'
                                CHECK (state IN ('PENDING', 'APPROVED', 'REJECTED', 'EXPIRED')),
    decided_by      text,
    decided_login   text,
    decided_at      timestamptz,
    reject_reason   text,
    -- what came of the approved decision
    result          jsonb
);
CREATE INDEX decision_requests_pending_idx ON decision_requests (requested_at) WHERE state = 'PENDING';

-- A request is never edited: only its state moves, once, from PENDING; then the approver records its result once.
-- The requester's login and the decider's login are stamped here, and an approval by the login that asked is refused.
-- The schema owner is the one login everyone shares in the sandbox (and on a workstation without operator logins):
-- for it, the typed names stand in for the logins.
CREATE FUNCTION guard_decision_request() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    owner constant name := (SELECT nspowner::regrole::name FROM pg_namespace WHERE nspname = TG_TABLE_SCHEMA);
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.state <> 'PENDING' OR NEW.decided_by IS NOT NULL OR NEW.result IS NOT NULL THEN
            RAISE EXCEPTION 'a decision request starts PENDING and undecided' USING ERRCODE = 'check_violation';
        END IF;
        NEW.requested_login := session_user;
        NEW.decided_login := NULL;
        RETURN NEW;
    END IF;
    IF (NEW.kind, NEW.targets, NEW.selection, NEW.options, NEW.reason, NEW.covered_by, NEW.requested_by,
        NEW.requested_at, NEW.expires_at) IS DISTINCT FROM
       (OLD.kind, OLD.targets, OLD.selection, OLD.options, OLD.reason, OLD.covered_by, OLD.requested_by,
        OLD.requested_at, OLD.expires_at) THEN
        RAISE EXCEPTION 'decision request % is never edited: only its state changes', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    NEW.requested_login := OLD.requested_login;
    IF OLD.state = 'PENDING' AND NEW.state <> 'PENDING' THEN
        NEW.decided_login := CASE WHEN NEW.state = 'EXPIRED' THEN NULL ELSE session_user END;
        IF NEW.state = 'APPROVED' AND session_user = OLD.requested_login
           AND (session_user <> owner OR lower(btrim(NEW.decided_by)) = lower(btrim(OLD.requested_by))) THEN
            RAISE EXCEPTION 'request % was asked for by % (login %): a second operator must approve it', OLD.id,
                OLD.requested_by, OLD.requested_login USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NEW.result IS NOT NULL THEN
            RAISE EXCEPTION 'request %: the result is recorded after the approval', OLD.id
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END IF;
    IF NEW.state IS DISTINCT FROM OLD.state
       OR (NEW.decided_by, NEW.decided_at, NEW.reject_reason) IS DISTINCT FROM
          (OLD.decided_by, OLD.decided_at, OLD.reject_reason) THEN
        RAISE EXCEPTION 'request % is already %', OLD.id, OLD.state USING ERRCODE = 'insufficient_privilege';
    END IF;
    NEW.decided_login := OLD.decided_login;
    IF NEW.result IS DISTINCT FROM OLD.result
       AND (OLD.state <> 'APPROVED' OR OLD.result IS NOT NULL OR session_user <> OLD.decided_login) THEN
        RAISE EXCEPTION 'request %: only its approver records its result, once', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER decision_requests_guard BEFORE INSERT OR UPDATE ON decision_requests
    FOR EACH ROW EXECUTE FUNCTION guard_decision_request();

-- Operators ask, approve and reject; they read the policy but do not change it. Viewers read both (masked below).
DO $$
DECLARE
    namespace text := '${flyway:defaultSchema}';
    operator text := namespace || '_operator';
    viewer text := namespace || '_viewer';
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = operator) THEN
        EXECUTE format('GRANT SELECT ON %I.four_eyes_policy, %I.decision_requests TO %I', namespace, namespace, operator);
        EXECUTE format('GRANT INSERT ON %I.decision_requests TO %I', namespace, operator);
        EXECUTE format('GRANT UPDATE (state, decided_by, decided_at, reject_reason, result) ON %I.decision_requests TO %I',
                       namespace, operator);
        EXECUTE format('GRANT USAGE ON SEQUENCE %I.decision_requests_id_seq TO %I', namespace, operator);
    END IF;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = viewer) THEN
        EXECUTE format('GRANT SELECT ON %I.four_eyes_policy, %I.decision_requests TO %I', namespace, namespace, viewer);
    END IF;
END $$;

-- A request holds a reason, a corrected payload or a result, and the filter text the requester typed.
INSERT INTO viewer_masked_columns (table_name, column_name) VALUES
    ('decision_requests', 'selection'), ('decision_requests', 'options'), ('decision_requests', 'reason'),
    ('decision_requests', 'reject_reason'), ('decision_requests', 'result');
CALL refresh_viewer_masks();
