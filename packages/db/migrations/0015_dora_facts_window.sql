-- GET /v1/metrics/dora reads a year of one environment's DORA facts (queries/dora.ts). The rows
-- of all environments interleave in the heap, so that year lay on most of the table's pages
-- (15,000 page reads at 1M deployments, 5M commits); an index-only scan of a covering index reads
-- it in time order from about 1,400 leaf pages instead.
--
-- A btree entry holds at most about 2.7 kB, so a row with more than 200 lead times (a deployment
-- that first delivered hundreds of commits: rare) stays out of it and is read from the heap
-- through the second index. queries/dora.ts reads both, with the same bound.
drop index deployment_dora_facts_window;
create index deployment_dora_facts_window on deployment_dora_facts (environment_id, deployed_at)
  include (application_id, deployment_id, change_type, rollback_target, reverts, lead_seconds)
  where cardinality(lead_seconds) <= 200;
create index deployment_dora_facts_window_long on deployment_dora_facts (environment_id, deployed_at)
  where cardinality(lead_seconds) > 200;
