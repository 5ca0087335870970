-- Correct and redrive: an operator replaces a dead-lettered operation by the next logical attempt of its node with a
-- corrected payload. The original is SUPERSEDED (never runs again) and its DLQ entry decided SUPERSEDED; each side
-- names the other.

ALTER TABLE operations DROP CONSTRAINT operations_status_check;
ALTER TABLE operations ADD CONSTRAINT operations_status_check
    CHECK (status IN ('PENDING', 'RUNNING', 'RETRY_SCHEDULED', 'SUCCEEDED', 'DEAD_LETTERED', 'DISCARDED', 'CANCELLED',
                      'SUPERSEDED'));

-- The operation this one corrects. UNIQUE: of two operators correcting the same operation at once, the database lets
-- exactly one correction in.
ALTER TABLE operations ADD COLUMN corrects text UNIQUE REFERENCES operations (operation_id);

ALTER TABLE dlq_entries DROP CONSTRAINT dlq_entries_decision_state_check;
ALTER TABLE dlq_entries ADD CONSTRAINT dlq_entries_decision_state_check
    CHECK (decision_state IN ('OPEN', 'REDRIVEN', 'RESOLVED', 'DISCARDED', 'SUPERSEDED'));

-- The correction that superseded the entry's operation; set with the decision, and only with SUPERSEDED.
ALTER TABLE dlq_entries ADD COLUMN superseded_by text REFERENCES operations (operation_id);
ALTER TABLE dlq_entries ADD CONSTRAINT dlq_entries_superseded_by_decision
    CHECK ((superseded_by IS NULL) = (decision_state <> 'SUPERSEDED'));

-- Both tables gained a column: the viewer's masked views and column grants include it.
CALL refresh_viewer_masks();
