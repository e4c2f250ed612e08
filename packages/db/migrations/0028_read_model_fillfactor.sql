-- deployment_cells and deployment_counts are rewritten by every batch the worker records: the cell
-- and the current day's and week's counts of each stream it touches. Postgres writes the new
-- version of a row on its own page when the page has room (a heap-only update: no new index
-- entry), and otherwise on another page with a new entry in the primary key. 0026 left half the
-- cells' pages free and 30 % of the counts'. That is room enough while vacuum keeps up, since
-- each page's dead versions are pruned as it fills. Where vacuum runs late (a report's long
-- transaction, an idle session holding a snapshot, autovacuum off), no dead version can be
-- pruned: the pages fill, and each upsert's look-up walks one index entry and one heap page per
-- version left since. With a snapshot held over a drain of 100,000 deployments at 1M stored, the
-- drain fell to 0.66× of the same drain without it. With three quarters of each page free it held
-- 0.70–0.79× (the current counts rows of a dozen applications share a page, and its room); with
-- nine tenths, 0.82× (docs/benchmarks.md, bench:drain).
--
-- The cost is space and a little reading. At a million deployments on 1,800 streams the counts
-- take 45 MB instead of 6 MB (16 MB at three quarters free), the cells 2.9 MB instead of 0.5, and
-- a year of daily counts for one environment reads in about 5.5 ms instead of 3. Rows already
-- stored keep their pages; a row moves to a page with room on its next update, so the setting
-- takes effect as the current rows are written.
alter table deployment_cells set (fillfactor = 10);
alter table deployment_counts set (fillfactor = 10);
