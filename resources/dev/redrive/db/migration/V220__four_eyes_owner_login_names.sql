-- Four-eyes, mended: a request asked for under one's own login could be approved by the same person through the shared
-- schema owner's login, typing her own name (" ALICE " for alice): the typed names were compared only when both sides
-- used the owner's login. They are now compared whenever either side did; two personal logins are compared as logins.
CREATE OR REPLACE FUNCTION guard_decision_request() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, "${flyway:defaultSchema}", pg_temp AS $$
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
        -- The same personal login, or the same typed name where either side used the shared owner login.
        IF NEW.state = 'APPROVED'
           AND ((session_user = OLD.requested_login AND session_user <> owner)
                OR ((session_user = owner OR OLD.requested_login = owner)
                    AND lower(btrim(NEW.decided_by)) = lower(btrim(OLD.requested_by)))) THEN
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
