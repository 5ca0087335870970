ALTER TABLE orders ADD COLUMN note text;
