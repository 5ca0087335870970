-- A durable bulk decision: a batch is a row that remembers what it takes (operation ids, or a DLQ filter such as a
-- fingerprint group), who asked and why, how far it got and who is running it, so that a batch of a million entries
-- survives its CLI or console being closed or killed and is resumed where it stopped. Each chunk's decisions and the
-- batch's progress commit in one transaction (dev.redrive.triage.decision.DurableBatches).

CREATE TABLE redrive_batches (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind             text NOT NULL CHECK (kind IN ('REDRIVE', 'RESOLVE', 'DISCARD')),
    -- {"operation_ids": [...]} or {"filter": {...}}: the selection as data, walked in keyset order
    selection        jsonb NOT NULL,
    operator         text NOT NULL,
    db_login         text,
    reason           text NOT NULL,
    schema_version   text,
    items_per_second double precision NOT NULL DEFAULT 0 CHECK (items_per_second >= 0),
    chunk_size       int NOT NULL CHECK (chunk_size BETWEEN 1 AND 1000),
    state            text NOT NULL DEFAULT 'RUNNING' CHECK (state IN ('RUNNING', 'STOPPED', 'DONE', 'FAILED')),
    -- the key of the last item decided: the DLQ cursor (entered_at/id) of a filter, the count of ids taken of a list
    position         text,
    -- how many items the selection held when the batch was created: what progress and ETA are measured against
    total            bigint NOT NULL CHECK (total >= 0),
    done             bigint NOT NULL DEFAULT 0,
    succeeded        bigint NOT NULL DEFAULT 0,
    blocked          bigint NOT NULL DEFAULT 0,
    failed           bigint NOT NULL DEFAULT 0,
    left_out         bigint NOT NULL DEFAULT 0,
    -- the redrive commands of the last chunk until their dispatches are known to be published
    unpublished      uuid[] NOT NULL DEFAULT '{}',
    last_chunk_at    timestamptz,
    -- who runs it now, until when: a process holds a batch only while its lease runs, so two never run one at once
    owner            text,
    lease_until      timestamptz,
    error            text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz
);
CREATE INDEX redrive_batches_newest ON redrive_batches (created_at DESC, id DESC);

CREATE TRIGGER redrive_batches_db_login BEFORE INSERT ON redrive_batches
    FOR EACH ROW EXECUTE FUNCTION stamp_db_login();

-- An operator starts, stops and resumes batches; a viewer reads them, their reason, selection and error masked.
DO $$
DECLARE
    namespace text := '${flyway:defaultSchema}';
    operator text := namespace || '_operator';
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = operator) THEN
        EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I.redrive_batches TO %I', namespace, operator);
        EXECUTE format('GRANT USAGE ON ALL SEQUENCES IN SCHEMA %I TO %I', namespace, operator);
    END IF;
END $$;

INSERT INTO viewer_masked_columns (table_name, column_name) VALUES
    ('redrive_batches', 'selection'), ('redrive_batches', 'reason'), ('redrive_batches', 'error');
CALL refresh_viewer_masks();
