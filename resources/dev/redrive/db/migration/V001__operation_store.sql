-- Runs, operations and their attempt history: the worker's source of truth.

CREATE TABLE runs (
    run_id        text        PRIMARY KEY,
    status        text        NOT NULL DEFAULT 'RUNNING'
                              CHECK (status IN ('RUNNING', 'CANCELLED', 'SUCCEEDED', 'FAILED')),
    status_reason text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE operations (
    operation_id        text        PRIMARY KEY,
    run_id              text        NOT NULL REFERENCES runs (run_id),
    node_id             text        NOT NULL,
    logical_attempt     integer     NOT NULL CHECK (logical_attempt >= 0),
    status              text        NOT NULL
                                    CHECK (status IN ('PENDING', 'RUNNING', 'RETRY_SCHEDULED', 'SUCCEEDED',
                                                      'DEAD_LETTERED', 'DISCARDED', 'CANCELLED')),
    attempt             integer     NOT NULL DEFAULT 1 CHECK (attempt >= 1),
    tool                text        NOT NULL,
    tool_schema_version text        NOT NULL,
    idempotency_key     text        NOT NULL,
    payload             jsonb       NOT NULL,
    approval_id         text,
    trace_id            text,
    correlation_id      text,
    runtime_version     text,
    lease_owner         text,
    fencing_token       bigint      NOT NULL DEFAULT 0,
    lease_expires_at    timestamptz,
    result              jsonb,
    side_effect         text        NOT NULL DEFAULT 'NONE'
                                    CHECK (side_effect IN ('NONE', 'POSSIBLE', 'APPLIED', 'NOT_APPLIED')),
    last_error_class    text,
    next_eligible_at    timestamptz,
    redrive_command_id  uuid,
    dispatched_at       timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT operation_id_is_identity
        CHECK (operation_id = run_id || ':' || node_id || ':' || logical_attempt)
);

CREATE INDEX operations_run_idx ON operations (run_id);
CREATE INDEX operations_status_idx ON operations (status, next_eligible_at);
CREATE INDEX operations_idempotency_key_idx ON operations (idempotency_key);

-- One row per execution try. Retries and redrives add rows; the operation id never changes.
CREATE TABLE attempts (
    id                 bigserial   PRIMARY KEY,
    operation_id       text        NOT NULL REFERENCES operations (operation_id),
    attempt            integer     NOT NULL,
    delivery_id        text,
    delivery_count     integer,
    consumer           text,
    fencing_token      bigint,
    redrive_command_id uuid,
    started_at         timestamptz NOT NULL,
    finished_at        timestamptz,
    outcome            text        NOT NULL
                                   CHECK (outcome IN ('SUCCEEDED', 'RETRY_SCHEDULED', 'DEAD_LETTERED')),
    error_class        text        CHECK (error_class IN ('TRANSIENT', 'RATE_LIMITED', 'DEPENDENCY_DOWN',
                                                          'INVALID_INPUT', 'PERMISSION', 'UNKNOWN_SIDE_EFFECT')),
    error_code         text,
    error_message      text,
    retry_after_ms     bigint,
    next_eligible_at   timestamptz,
    side_effect        text        CHECK (side_effect IN ('NONE', 'POSSIBLE', 'APPLIED', 'NOT_APPLIED'))
);

CREATE INDEX attempts_operation_idx ON attempts (operation_id, attempt, started_at);
