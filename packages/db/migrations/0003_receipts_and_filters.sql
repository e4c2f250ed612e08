-- Every accepted request has a receipt id (its 202's Location). A delivery recorded as a duplicate
-- of an earlier one keeps its receipt, pointing at the deployment it repeated.
create table deployment_aliases (
  id uuid primary key,
  deployment_id uuid not null references deployments (id) on delete cascade,
  created_at timestamptz not null default now()
);

-- Filters of GET /v1/deployments: by commit (prefix) and by version within a workspace.
create index deployments_by_commit on deployments (workspace_id, commit_hash text_pattern_ops);
create index deployments_by_version on deployments (workspace_id, version);
