-- The keyset index carries the error text: a text search that walks entries newest (or oldest) first to find the
-- next page of matches reads the messages from the index alone (an index-only scan) instead of one heap page per
-- entry it passes over, which at a million entries is what made a phrase of middling frequency slow.
DROP INDEX dlq_entered_idx;
CREATE INDEX dlq_entered_idx ON dlq_entries (entered_at DESC, id DESC) INCLUDE (error_message);
