-- One order over the calls and the look-ups of the demo tools, so that a call can be checked against the look-ups
-- before it: a call for a key whose earlier call was not followed by a look-up answering "not applied" (404) is a blind
-- recall, which a tool that is not idempotent would feel as a second effect. Both rows are written under the key's lock.
CREATE SEQUENCE IF NOT EXISTS demo_tool_ledger_seq;
ALTER TABLE demo_tool_calls ADD COLUMN IF NOT EXISTS seq bigint NOT NULL DEFAULT nextval('demo_tool_ledger_seq');
ALTER TABLE demo_tool_lookups ADD COLUMN IF NOT EXISTS seq bigint NOT NULL DEFAULT nextval('demo_tool_ledger_seq');

-- A tool in "apply every call" mode records each call's effect, so a second call for a key shows as a second effect.
ALTER TABLE demo_tool_effects DROP CONSTRAINT IF EXISTS demo_tool_effects_idempotency_key_key;
CREATE INDEX IF NOT EXISTS demo_tool_effects_key_idx ON demo_tool_effects (idempotency_key);

-- The viewer's masked views list every column of their tables (V120).
CALL refresh_viewer_masks();
