-- The fact that a call to the tool may have applied its effect, where no status change can erase it. Until now the only
-- sign of an attempt in flight was status RUNNING, and a move out of it that settled nothing (a deferral while the tool
-- was paused) wiped it: the next attempt called the tool again without asking whether the first call had landed.
--   NONE              no call yet, or the latest was looked up and found not applied: the next attempt may call
--   ANSWERED_FAILURE  the tool answered the latest call with a failure: look up first, call when the look-up cannot tell
--   IN_DOUBT          a call may have started and its outcome is not recorded: look up first, never call blind
-- Only the claim (IN_DOUBT), the commit of an attempt, the give-back of an attempt that never started and a recorded
-- reconciliation write it. Not indexed: a claim stays a HOT update.
ALTER TABLE operations ADD COLUMN last_call text NOT NULL DEFAULT 'NONE'
    CONSTRAINT operations_last_call_check CHECK (last_call IN ('NONE', 'ANSWERED_FAILURE', 'IN_DOUBT'));

-- Operations already here: a claim that never settled (still RUNNING, or deferred after a takeover: a claim counts a
-- processing delivery and only settling resets the count) or a dead letter whose effect is possible is in doubt; one
-- with failed attempts on record had its tool answer.
UPDATE operations o SET last_call = CASE
        WHEN o.processing_deliveries > 0 OR o.status = 'RUNNING' OR o.side_effect = 'POSSIBLE' THEN 'IN_DOUBT'
        ELSE 'ANSWERED_FAILURE' END
 WHERE o.status IN ('PENDING', 'RUNNING', 'RETRY_SCHEDULED', 'DEAD_LETTERED')
   AND (o.processing_deliveries > 0 OR o.status = 'RUNNING' OR o.side_effect = 'POSSIBLE'
        OR EXISTS (SELECT 1 FROM attempts a WHERE a.operation_id = o.operation_id));

CALL refresh_viewer_masks();
