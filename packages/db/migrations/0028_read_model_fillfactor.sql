-- deployment_cells and deployment_counts are rewritten by every batch the worker records: the cell
-- and the current day's and week's counts of each stream it touches. Postgres writes the new
-- version of a row on its own page when the page has room (a heap-only update: no new index
-- entry), and otherwise on another page with a new entry in the primary key. Packed full, as
-- tables are by default, every such update took the second path; and where vacuum runs late (a
-- report's long transaction, an idle session holding a snapshot, autovacuum off) the dead
-- versions stay, so each upsert's look-up walked one index entry and one heap page per version
-- left since: with a snapshot held over a drain of 100,000 deployments, the drain fell to 0.66×
-- of the same drain without it. With three quarters of each page kept free, versions stay on
-- their row's page and the walk mostly stays on one page: 0.86×, and the drain with vacuum on
-- time is unchanged (docs/benchmarks.md, bench:drain).
--
-- The cost is space: both tables take about four times the pages (at a million deployments,
-- 6 MB of counts become 25 MB). Rows already stored keep their pages; a row moves to a page with
-- room on its next update, so the setting takes effect as the current rows are written.
alter table deployment_cells set (fillfactor = 25);
alter table deployment_counts set (fillfactor = 25);
