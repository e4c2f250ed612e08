-- Incidents: something went wrong in an environment (perhaps in one application), from startedAt
-- until resolvedAt, perhaps caused by a recorded deployment. The DORA metrics count a deployment
-- an incident names as its cause as failed, and recovered when the incident is resolved.
create table incidents (
  id uuid primary key,
  workspace_id bigint not null references workspaces (id) on delete cascade,
  environment_id bigint not null references environments (id) on delete cascade,
  -- An application name (its key and the spelling sent): it names the application in every
  -- repository, as the `app` filter of GET /v1/deployments does.
  app text check (char_length(app) between 1 and 255),
  app_key text,
  title text not null check (char_length(title) between 1 and 200),
  started_at timestamptz not null,
  resolved_at timestamptz check (resolved_at >= started_at),
  cause_deployment_id uuid references deployments (id) on delete set null,
  created_by_key uuid not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((app is null) = (app_key is null))
);

-- The listing, latest startedAt first per workspace, and per environment.
create index incidents_newest on incidents (workspace_id, started_at, id);
-- A deployment's incidents, for its failure (and the foreign key's deletes).
create index incidents_by_cause on incidents (cause_deployment_id) where cause_deployment_id is not null;
