-- The commits each deployment delivered, as its pipeline's `git log <previous>..<commit>` listed
-- them (shiplog notify sends them): change lead time starts at their committer time, and a
-- commit that reverts an earlier one marks the deployment that delivered that one as failed.
-- Keyed by the receipt id of the 202: a deployment may still be queued when they arrive, so no
-- foreign key to deployments (a repeated delivery's receipt id resolves through
-- deployment_aliases when read).
create table deployment_commit_lists (
  deployment_id uuid primary key,
  workspace_id bigint not null references workspaces (id) on delete cascade,
  -- The pipeline sent only the newest 5,000.
  truncated boolean not null,
  stored_at timestamptz not null default now()
);

create table deployment_commits (
  deployment_id uuid not null references deployment_commit_lists (deployment_id) on delete cascade,
  sha text not null check (sha ~ '^[0-9a-f]{40}([0-9a-f]{24})?$'),
  committed_at timestamptz not null,
  authored_at timestamptz not null,
  reverts text[] not null default '{}',
  primary key (deployment_id, sha)
);
