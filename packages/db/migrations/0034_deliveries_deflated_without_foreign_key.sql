-- A receiver's insert is the hot path of every integration (docs/benchmarks.md, receivers).

-- The foreign key to `integrations` cost each delivery a trigger and a share lock on its
-- integration's row (15 µs of 47 for a small delivery), and made a delivery racing its
-- integration's deletion fail the whole group it was stored with. Deliveries go with their
-- integration by a trigger on `integrations` instead (09_triggers.sql), which costs an insert
-- nothing; one stored in the moment of the deletion is never taken by the worker (it joins
-- `integrations`) and is forgotten with the old ones.
alter table integration_deliveries drop constraint integration_deliveries_integration_id_fkey;

-- Bodies are stored compressed by the receiver (delivery-body.ts): never compressed again, and
-- kept in their row up to 8 KB (a compressed GitHub delivery is about 2 KB) instead of in TOAST
-- chunks, each one more tuple and index entry. `body` holds the text of deliveries stored
-- before this migration, until the worker has read them; new ones leave it null.
alter table integration_deliveries add column body_deflated bytea;
alter table integration_deliveries alter column body_deflated set storage external;
alter table integration_deliveries set (toast_tuple_target = 8160);

-- A delivery is stored waiting for the worker unless the receiver says otherwise (a ping): the
-- receiver's insert leaves it out.
alter table integration_deliveries alter column state set default 'received';
