-- A request whose items were all decided by another path meanwhile (a direct decision once the policy changed,
-- another request, a correction) can no longer be approved: it reads OBSOLETE, as a request past its expiry reads
-- EXPIRED, and is recorded so when someone tries to approve or reject it. The guard of V220 lets a request leave
-- PENDING once, to any state; OBSOLETE is one more state it may reach.
ALTER TABLE decision_requests DROP CONSTRAINT decision_requests_state_check;
ALTER TABLE decision_requests ADD CONSTRAINT decision_requests_state_check
    CHECK (state IN ('PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'OBSOLETE'));
