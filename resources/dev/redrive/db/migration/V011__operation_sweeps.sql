-- When a sweep last re-published an operation that Redis may have lost, so that it is re-published at most once
-- per grace period.
ALTER TABLE operations ADD COLUMN swept_at timestamptz;
