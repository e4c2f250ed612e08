-- The inbox: accepted deployments waiting to be recorded, one narrow row each (issue 25). The API
-- inserts a group commit's deployments here in one statement; the worker deletes a batch in the
-- transaction that records it, so a deployment is in exactly one of the inbox and `deployments`
-- at every instant. pg-boss keeps only what fails (retries with backoff, then the dead-letter
-- queue), so the queue costs this row while waiting (about 160 bytes and an index entry) instead
-- of a ~1.7 KB job kept for days. Typed columns rather than a JSON payload: half the bytes, and
-- the queued listing filters and sorts them as it does recorded ones.
-- No foreign key to workspaces: a lookup per accepted deployment for a row that lives seconds;
-- a workspace is never deleted while its keys can post.
create table deployment_inbox (
  id uuid primary key,
  workspace_id bigint not null,
  received_at timestamptz not null,
  deployed_at timestamptz not null,
  repository_full_name text not null,
  environment text not null,
  app text not null,
  version text not null,
  commit_hash text not null,
  description text,
  author text,
  monorepo_path text
);

-- Rows written by every batch (a cell's latest, a day's count) are rewritten in place when the
-- page has room (a HOT update, no index entry), and pruned on the page as soon as no snapshot
-- needs them, without waiting for vacuum: room is what these leave on each page.
alter table deployment_cells set (fillfactor = 50);
alter table deployment_counts set (fillfactor = 70);
