-- How many DLQ entries each (fingerprint, class, tool, decision state) has, with the first and last time one entered:
-- the fingerprint groups, the counts of filters on those columns and the queue health's open depth are read from
-- these few hundred rows instead of aggregating every entry. Statement triggers keep it up to date in the very
-- transaction that inserts, decides or deletes entries, whoever writes them; a set-based write of N entries costs one
-- upsert per cell it touches, not N.
CREATE TABLE dlq_summary (
    error_fingerprint text        NOT NULL,
    error_class       text        NOT NULL,
    tool              text        NOT NULL, -- '' for entries without a tool, so that the key has no NULL
    decision_state    text        NOT NULL,
    entries           bigint      NOT NULL CHECK (entries >= 0),
    first_seen        timestamptz,          -- NULL while the cell has no entry
    last_seen         timestamptz,
    PRIMARY KEY (error_fingerprint, error_class, tool, decision_state)
);

-- The open depth and the oldest open entry of the queue health read only the OPEN cells.
CREATE INDEX dlq_summary_state_idx ON dlq_summary (decision_state);

-- Entries of one cell by entered_at: when the first or last entry of a cell leaves it, the new first or last is one
-- probe here. It also answers filtered fingerprint groups alone (index-only), as the index it replaces did.
DROP INDEX dlq_group_idx;
CREATE INDEX dlq_group_idx ON dlq_entries (error_fingerprint, decision_state, entered_at) INCLUDE (error_class, tool);

-- What a statement changed in one cell.
CREATE TYPE dlq_summary_delta AS (
    error_fingerprint text,
    error_class       text,
    tool              text,
    decision_state    text,
    entries           bigint,
    first_seen        timestamptz,
    last_seen         timestamptz
);

CREATE FUNCTION dlq_summary_add(deltas dlq_summary_delta[]) RETURNS void
    LANGUAGE plpgsql SET search_path = "${flyway:defaultSchema}" AS $$
BEGIN
    -- Cells in key order, so two writers that touch the same cells lock them in the same order.
    INSERT INTO dlq_summary AS s (error_fingerprint, error_class, tool, decision_state, entries, first_seen, last_seen)
    SELECT d.error_fingerprint, d.error_class, d.tool, d.decision_state, d.entries, d.first_seen, d.last_seen
      FROM unnest(deltas) d
     ORDER BY d.error_fingerprint, d.error_class, d.tool, d.decision_state
    ON CONFLICT (error_fingerprint, error_class, tool, decision_state) DO UPDATE
       SET entries    = s.entries + excluded.entries,
           first_seen = LEAST(s.first_seen, excluded.first_seen),
           last_seen  = GREATEST(s.last_seen, excluded.last_seen);
END $$;

CREATE FUNCTION dlq_summary_remove(deltas dlq_summary_delta[]) RETURNS void
    LANGUAGE plpgsql SET search_path = "${flyway:defaultSchema}" AS $$
BEGIN
    -- Lock the cells first: under READ COMMITTED the UPDATE below then takes a snapshot that sees every entry
    -- committed by a writer that held one of these cells before us, so a first or last it looks up again is exact.
    -- A writer that comes after us waits here and merges its own entries with LEAST/GREATEST.
    PERFORM 1
       FROM dlq_summary s
       JOIN unnest(deltas) d USING (error_fingerprint, error_class, tool, decision_state)
      ORDER BY s.error_fingerprint, s.error_class, s.tool, s.decision_state
        FOR UPDATE OF s;
    UPDATE dlq_summary s
       SET entries    = s.entries - d.entries,
           first_seen = CASE WHEN s.entries = d.entries THEN NULL
                             WHEN d.first_seen > s.first_seen THEN s.first_seen
                             ELSE (SELECT min(e.entered_at) FROM dlq_entries e
                                    WHERE e.error_fingerprint = s.error_fingerprint
                                      AND e.decision_state = s.decision_state
                                      AND e.error_class = s.error_class AND coalesce(e.tool, '') = s.tool) END,
           last_seen  = CASE WHEN s.entries = d.entries THEN NULL
                             WHEN d.last_seen < s.last_seen THEN s.last_seen
                             ELSE (SELECT max(e.entered_at) FROM dlq_entries e
                                    WHERE e.error_fingerprint = s.error_fingerprint
                                      AND e.decision_state = s.decision_state
                                      AND e.error_class = s.error_class AND coalesce(e.tool, '') = s.tool) END
      FROM unnest(deltas) d
     WHERE (s.error_fingerprint, s.error_class, s.tool, s.decision_state)
         = (d.error_fingerprint, d.error_class, d.tool, d.decision_state);
END $$;

CREATE FUNCTION dlq_summary_on_insert() RETURNS trigger
    LANGUAGE plpgsql SET search_path = "${flyway:defaultSchema}" AS $$
BEGIN
    PERFORM dlq_summary_add(ARRAY(
        SELECT ROW(error_fingerprint, error_class, coalesce(tool, ''), decision_state,
                   count(*), min(entered_at), max(entered_at))::dlq_summary_delta
          FROM added GROUP BY error_fingerprint, error_class, coalesce(tool, ''), decision_state));
    RETURN NULL;
END $$;

CREATE FUNCTION dlq_summary_on_delete() RETURNS trigger
    LANGUAGE plpgsql SET search_path = "${flyway:defaultSchema}" AS $$
BEGIN
    PERFORM dlq_summary_remove(ARRAY(
        SELECT ROW(error_fingerprint, error_class, coalesce(tool, ''), decision_state,
                   count(*), min(entered_at), max(entered_at))::dlq_summary_delta
          FROM removed GROUP BY error_fingerprint, error_class, coalesce(tool, ''), decision_state));
    RETURN NULL;
END $$;

-- Only entries whose cell changed move; an update of anything else (the side effect, the version) costs one join.
CREATE FUNCTION dlq_summary_on_update() RETURNS trigger
    LANGUAGE plpgsql SET search_path = "${flyway:defaultSchema}" AS $$
BEGIN
    PERFORM dlq_summary_add(ARRAY(
        SELECT ROW(a.error_fingerprint, a.error_class, coalesce(a.tool, ''), a.decision_state,
                   count(*), min(a.entered_at), max(a.entered_at))::dlq_summary_delta
          FROM added a JOIN removed r USING (id)
         WHERE (a.error_fingerprint, a.error_class, a.tool, a.decision_state, a.entered_at)
               IS DISTINCT FROM (r.error_fingerprint, r.error_class, r.tool, r.decision_state, r.entered_at)
         GROUP BY a.error_fingerprint, a.error_class, coalesce(a.tool, ''), a.decision_state));
    PERFORM dlq_summary_remove(ARRAY(
        SELECT ROW(r.error_fingerprint, r.error_class, coalesce(r.tool, ''), r.decision_state,
                   count(*), min(r.entered_at), max(r.entered_at))::dlq_summary_delta
          FROM removed r JOIN added a USING (id)
         WHERE (a.error_fingerprint, a.error_class, a.tool, a.decision_state, a.entered_at)
               IS DISTINCT FROM (r.error_fingerprint, r.error_class, r.tool, r.decision_state, r.entered_at)
         GROUP BY r.error_fingerprint, r.error_class, coalesce(r.tool, ''), r.decision_state));
    RETURN NULL;
END $$;

CREATE FUNCTION dlq_summary_on_truncate() RETURNS trigger
    LANGUAGE plpgsql SET search_path = "${flyway:defaultSchema}" AS $$
BEGIN
    DELETE FROM dlq_summary;
    RETURN NULL;
END $$;

CREATE TRIGGER dlq_summary_insert AFTER INSERT ON dlq_entries
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION dlq_summary_on_insert();
CREATE TRIGGER dlq_summary_update AFTER UPDATE ON dlq_entries
    REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION dlq_summary_on_update();
CREATE TRIGGER dlq_summary_delete AFTER DELETE ON dlq_entries
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION dlq_summary_on_delete();
CREATE TRIGGER dlq_summary_truncate AFTER TRUNCATE ON dlq_entries
    FOR EACH STATEMENT EXECUTE FUNCTION dlq_summary_on_truncate();

-- The entries already there. The triggers exist from here on and this migration's transaction holds the table
-- against writers until it commits, so nothing is counted twice or missed.
INSERT INTO dlq_summary (error_fingerprint, error_class, tool, decision_state, entries, first_seen, last_seen)
SELECT error_fingerprint, error_class, coalesce(tool, ''), decision_state, count(*), min(entered_at), max(entered_at)
  FROM dlq_entries
 GROUP BY error_fingerprint, error_class, coalesce(tool, ''), decision_state;
