-- Retention: the bulky evidence of decided DLQ entries (raw message, payload, attempt and delivery history) can be
-- purged once it is older than the namespace keeps it. Identity, error, decision and the audit log are kept forever;
-- every purge is a row here, and each entry it emptied names that row.

CREATE TABLE evidence_purges (
    id             bigserial   PRIMARY KEY,
    -- every decided entry decided before this moment was purged
    decided_before timestamptz NOT NULL,
    -- the name typed (dlq purge --operator), or "retention policy" for a worker's housekeeping
    requested_by   text        NOT NULL,
    db_login       text,
    started_at     timestamptz NOT NULL,
    finished_at    timestamptz,
    entries        bigint      NOT NULL DEFAULT 0,
    -- what the purged columns took, as pg_column_size counts it
    bytes          bigint      NOT NULL DEFAULT 0
);
CREATE TRIGGER evidence_purges_db_login BEFORE INSERT ON evidence_purges
    FOR EACH ROW EXECUTE FUNCTION stamp_db_login();

ALTER TABLE dlq_entries ALTER COLUMN raw_message DROP NOT NULL;
ALTER TABLE dlq_entries ADD COLUMN evidence_purge_id bigint REFERENCES evidence_purges (id);
ALTER TABLE dlq_entries ADD COLUMN evidence_purged_at timestamptz;
-- An open entry keeps its evidence: it is what the operator decides on.
ALTER TABLE dlq_entries ADD CONSTRAINT dlq_entries_open_keeps_evidence
    CHECK (evidence_purged_at IS NULL OR decision_state <> 'OPEN');
-- What a purge walks: the decided entries still holding their evidence, oldest decision first.
CREATE INDEX dlq_purgeable_idx ON dlq_entries (decided_at, id)
    WHERE decision_state <> 'OPEN' AND evidence_purged_at IS NULL;

-- How long decided entries keep their evidence; a worker's housekeeping applies it. Changed only by the schema owner,
-- like the four-eyes policy: evidence an operator could purge at will would prove nothing.
CREATE TABLE retention_policy (
    one                    boolean     PRIMARY KEY DEFAULT true CHECK (one),
    -- NULL = evidence is kept until someone runs dlq purge
    keep_evidence_seconds  bigint      CHECK (keep_evidence_seconds > 0),
    changed_by             text,
    changed_login          text,
    changed_at             timestamptz
);
INSERT INTO retention_policy DEFAULT VALUES;
CREATE TRIGGER retention_policy_login BEFORE UPDATE ON retention_policy
    FOR EACH ROW EXECUTE FUNCTION stamp_policy_login();

-- dlq_entries gained columns: the viewer's masked views and column grants include them.
CALL refresh_viewer_masks();
