-- Reconciliation look-ups the demo tool service answered, so that lookup_down:N can count them per key.

CREATE TABLE demo_tool_lookups (
    id              bigserial   PRIMARY KEY,
    received_at     timestamptz NOT NULL DEFAULT now(),
    tool            text        NOT NULL,
    idempotency_key text        NOT NULL,
    http_status     integer     NOT NULL
);
CREATE INDEX demo_tool_lookups_key_idx ON demo_tool_lookups (idempotency_key);
