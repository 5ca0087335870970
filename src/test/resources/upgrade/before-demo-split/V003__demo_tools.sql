-- What the demo tool service (a stand-in remote system) received and what it changed.

CREATE TABLE demo_tool_calls (
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
CREATE INDEX demo_tool_calls_key_idx ON demo_tool_calls (idempotency_key);

CREATE TABLE demo_tool_effects (
    id              bigserial   PRIMARY KEY,
    idempotency_key text        NOT NULL UNIQUE,
    operation_id    text,
    tool            text        NOT NULL,
    amount          numeric,
    result          jsonb       NOT NULL,
    applied_at      timestamptz NOT NULL DEFAULT now()
);
