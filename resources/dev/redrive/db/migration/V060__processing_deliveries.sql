-- Deliveries that claimed the operation's lease since it last settled (an attempt committed): the count poison
-- detection goes by. The broker's delivery count is no measure of failure: it also grows while a delivery is skipped
-- because another worker holds a live lease, or loses a claim race, and neither is anything wrong with the message.
ALTER TABLE operations ADD COLUMN processing_deliveries integer NOT NULL DEFAULT 0;
