-- The DLQ with its evidence, and everything a triage decision is checked against and leaves behind.

CREATE TABLE tool_schemas (
    tool          text        NOT NULL,
    version       text        NOT NULL,
    is_current    boolean     NOT NULL DEFAULT true,
    registered_by text        NOT NULL,
    registered_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tool, version)
);
CREATE UNIQUE INDEX tool_schemas_one_current ON tool_schemas (tool) WHERE is_current;

CREATE TABLE approvals (
    approval_id   text        PRIMARY KEY,
    scope         text        NOT NULL,
    granted_by    text        NOT NULL,
    granted_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz,
    revoked_at    timestamptz,
    revoked_by    text,
    revoke_reason text
);

CREATE TABLE dlq_entries (
    id                  bigserial   PRIMARY KEY,
    -- op:{operation_id}:{attempt} for a known operation, msg:{stream}:{entry_id} for an unreadable message,
    -- so that re-dead-lettering the same failure after a crash finds the entry it already wrote.
    dedup_key           text        NOT NULL UNIQUE,
    operation_id        text,
    run_id              text,
    node_id             text,
    logical_attempt     integer,
    attempt             integer,
    tool                text,
    tool_schema_version text,
    idempotency_key     text,
    approval_id         text,
    trace_id            text,
    correlation_id      text,
    runtime_version     text,
    stream              text,
    entry_id            text,
    delivery_count      integer,
    consumer            text,
    error_class         text        NOT NULL
                                    CHECK (error_class IN ('TRANSIENT', 'RATE_LIMITED', 'DEPENDENCY_DOWN',
                                                           'INVALID_INPUT', 'PERMISSION', 'UNKNOWN_SIDE_EFFECT')),
    error_code          text,
    error_message       text        NOT NULL,
    error_fingerprint   text        NOT NULL,
    side_effect         text        NOT NULL
                                    CHECK (side_effect IN ('NONE', 'POSSIBLE', 'APPLIED', 'NOT_APPLIED')),
    attempt_history     jsonb       NOT NULL DEFAULT '[]',
    raw_message         jsonb       NOT NULL,
    payload             jsonb,
    entered_at          timestamptz NOT NULL DEFAULT now(),
    decision_state      text        NOT NULL DEFAULT 'OPEN'
                                    CHECK (decision_state IN ('OPEN', 'REDRIVEN', 'RESOLVED', 'DISCARDED')),
    decided_by          text,
    decided_at          timestamptz,
    decision_reason     text,
    version             integer     NOT NULL DEFAULT 0
);

-- Keyset paging is (entered_at, id) descending; every filter index ends with that key.
CREATE INDEX dlq_entered_idx        ON dlq_entries (entered_at DESC, id DESC);
CREATE INDEX dlq_class_idx          ON dlq_entries (error_class, entered_at DESC, id DESC);
CREATE INDEX dlq_tool_idx           ON dlq_entries (tool, entered_at DESC, id DESC);
CREATE INDEX dlq_run_idx            ON dlq_entries (run_id, entered_at DESC, id DESC);
CREATE INDEX dlq_trace_idx          ON dlq_entries (trace_id);
CREATE INDEX dlq_correlation_idx    ON dlq_entries (correlation_id);
CREATE INDEX dlq_side_effect_idx    ON dlq_entries (side_effect, entered_at DESC, id DESC);
CREATE INDEX dlq_decision_idx       ON dlq_entries (decision_state, entered_at DESC, id DESC);
CREATE INDEX dlq_fingerprint_idx    ON dlq_entries (error_fingerprint, entered_at DESC, id DESC);
CREATE INDEX dlq_operation_idx      ON dlq_entries (operation_id, entered_at DESC);
CREATE INDEX dlq_error_text_idx     ON dlq_entries USING gin (to_tsvector('simple', error_message));

CREATE TABLE reconciliations (
    id            bigserial   PRIMARY KEY,
    operation_id  text        NOT NULL REFERENCES operations (operation_id),
    outcome       text        NOT NULL CHECK (outcome IN ('APPLIED', 'NOT_APPLIED', 'UNKNOWN')),
    source        text        NOT NULL CHECK (source IN ('TOOL', 'OPERATOR', 'WORKER')),
    evidence      text        NOT NULL,
    result        jsonb,
    recorded_by   text        NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reconciliations_operation_idx ON reconciliations (operation_id, recorded_at);

CREATE TABLE redrive_commands (
    command_id            uuid        PRIMARY KEY,
    operation_id          text        NOT NULL REFERENCES operations (operation_id),
    dlq_entry_id          bigint      NOT NULL REFERENCES dlq_entries (id),
    operator              text        NOT NULL,
    reason                text        NOT NULL,
    issued_at             timestamptz NOT NULL DEFAULT now(),
    from_attempt          integer     NOT NULL,
    to_attempt            integer     NOT NULL,
    target_schema_version text        NOT NULL,
    preconditions         jsonb       NOT NULL,
    status                text        NOT NULL DEFAULT 'ISSUED'
                                      CHECK (status IN ('ISSUED', 'EXECUTING', 'SUCCEEDED', 'FAILED')),
    executed_at           timestamptz,
    completed_at          timestamptz
);
CREATE INDEX redrive_commands_operation_idx ON redrive_commands (operation_id, issued_at);

-- Append-only: the database itself refuses to change or remove history.
CREATE TABLE audit_log (
    id           bigserial   PRIMARY KEY,
    at           timestamptz NOT NULL DEFAULT now(),
    actor        text        NOT NULL,
    action       text        NOT NULL,
    operation_id text,
    dlq_entry_id bigint,
    command_id   uuid,
    reason       text,
    details      jsonb       NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_operation_idx ON audit_log (operation_id, at);
CREATE INDEX audit_log_entry_idx ON audit_log (dlq_entry_id, at);

CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();
