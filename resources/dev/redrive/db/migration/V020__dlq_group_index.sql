-- Fingerprint groups are computed from this index alone (an index-only scan in fingerprint order): grouping a million
-- DLQ entries never reads the wide rows that carry the evidence.
CREATE INDEX dlq_group_idx ON dlq_entries (error_fingerprint) INCLUDE (error_class, decision_state, entered_at, tool);
