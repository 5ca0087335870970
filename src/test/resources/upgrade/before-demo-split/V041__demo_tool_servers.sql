-- Demo tool services running for this namespace, so that a console or CLI in another process can find the
-- reconciliation look-up endpoints of the demo tools (their port is chosen at start).

CREATE TABLE demo_tool_servers (
    id          bigserial   PRIMARY KEY,
    base_url    text        NOT NULL,
    pid         bigint      NOT NULL,
    started_at  timestamptz NOT NULL DEFAULT now(),
    stopped_at  timestamptz
);
CREATE INDEX demo_tool_servers_running_idx ON demo_tool_servers (started_at DESC) WHERE stopped_at IS NULL;
