-- A worker writes an operation row twice per attempt: the claim (PENDING or RETRY_SCHEDULED -> RUNNING) and the commit.
-- An update that changes no indexed column and finds room on the row's page is a HOT update: PostgreSQL writes no index
-- entry at all. operations_status_idx (status, next_eligible_at) made every such write a full one, with a new entry in
-- each of the table's indexes, although what read it (the stranded sweep, the look-up of redrives still waiting for a
-- worker) asked only for operations still in flight.
--
-- So those read a partial index of the operations in flight, keyed by the immutable operation_id and defined on a
-- stored generated column rather than on status itself: PostgreSQL compares an update's old and new values of the
-- columns its indexes name, and `in_flight` stays true from PENDING through RUNNING and RETRY_SCHEDULED. A claim and a
-- retry become HOT updates; only a change into or out of the in-flight set (a final status, a redrive) writes index
-- entries. Adding the stored column rewrites the table once.
ALTER TABLE operations ADD COLUMN in_flight boolean
    GENERATED ALWAYS AS (status IN ('PENDING', 'RUNNING', 'RETRY_SCHEDULED')) STORED;
CREATE INDEX operations_in_flight_idx ON operations (operation_id) WHERE in_flight;
DROP INDEX operations_status_idx;

-- Room on each page for the claim's new row version: a batch claims neighbouring rows (dispatched together) in one
-- statement, before any of their old versions can be pruned. Measured with 50,000 dispatches drained by the worker:
-- at fillfactor 70 half the claims found no room (24 % of the updates HOT), at 50 almost all did (47 %). The price is
-- space: the drained table had 3,904 pages at 50 and 4,444 at 70 (HOT versions are pruned in place), but a replay of
-- the same batches one after the other ended at 4,679 against 3,123. Rows already stored keep the packing the rewrite
-- above gave them; pages filled from now on keep the room.
ALTER TABLE operations SET (fillfactor = 50);

CALL refresh_viewer_masks();
-- The new column has no statistics yet; V251, which drops the statistics of the identifier columns, analyzes the
-- tables once for both.
