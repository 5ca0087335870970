-- The demo tools' own tables, in the namespace's schema, created by the demo tool server when it starts (history in
-- demo_schema_history, apart from the namespace's migrations): what the stand-in remote systems received, the effects
-- they applied, the look-ups they answered and the servers running for the namespace.
-- "IF NOT EXISTS": a namespace migrated before the demo had migrations of its own already holds these tables, created
-- by the namespace's V003, V040 and V041 as they were then; they are kept with their rows.

CREATE TABLE IF NOT EXISTS demo_tool_calls (
    id              bigserial   PRIMARY KEY,
    received_at     timestamptz NOT NULL DEFAULT now(),
    tool            text        NOT NULL,
    idempotency_key text,
    operation_id    text,
    attempt         integer,
    http_status     integer     NOT NULL,
    fault           text,
    body            jsonb
);
CREATE INDEX IF NOT EXISTS demo_tool_calls_key_idx ON demo_tool_calls (idempotency_key);

CREATE TABLE IF NOT EXISTS demo_tool_effects (
    id              bigserial   PRIMARY KEY,
    idempotency_key text        NOT NULL UNIQUE,
    operation_id    text,
    tool            text        NOT NULL,
    amount          numeric,
    result          jsonb       NOT NULL,
    applied_at      timestamptz NOT NULL DEFAULT now()
);

-- So that lookup_down:N can count the look-ups of a key.
CREATE TABLE IF NOT EXISTS demo_tool_lookups (
    id              bigserial   PRIMARY KEY,
    received_at     timestamptz NOT NULL DEFAULT now(),
    tool            text        NOT NULL,
    idempotency_key text        NOT NULL,
    http_status     integer     NOT NULL
);
CREATE INDEX IF NOT EXISTS demo_tool_lookups_key_idx ON demo_tool_lookups (idempotency_key);

-- So that a console or CLI in another process can find the look-up endpoints (the port is chosen at start).
CREATE TABLE IF NOT EXISTS demo_tool_servers (
    id          bigserial   PRIMARY KEY,
    base_url    text        NOT NULL,
    pid         bigint      NOT NULL,
    started_at  timestamptz NOT NULL DEFAULT now(),
    stopped_at  timestamptz
);
CREATE INDEX IF NOT EXISTS demo_tool_servers_running_idx ON demo_tool_servers (started_at DESC) WHERE stopped_at IS NULL;

-- Call bodies and results hold payloads: a viewer reads them masked, like every payload of the namespace (V120).
INSERT INTO viewer_masked_columns (table_name, column_name) VALUES
    ('demo_tool_calls', 'body'),
    ('demo_tool_effects', 'result')
ON CONFLICT DO NOTHING;
CALL refresh_viewer_masks();
