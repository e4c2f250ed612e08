-- Figures a worker computes on a timer for every replica's /metrics (issue 47): the DORA gauges,
-- computed by one replica at a time and read by all, so a scrape never runs the DORA statement
-- and every replica exports the same numbers. One row per kind of snapshot.
create table metric_snapshots (
  name text not null,
  computed_at timestamptz not null,
  body jsonb not null,
  constraint metric_snapshots_pkey primary key (name)
);
