-- Integrations (issue 40): a sender outside Shiplog (a GitHub or GitLab webhook) that reports
-- deployments and pushes by itself, into one workspace, proved by its own secret.
-- `secret` is what proves a delivery: sealed (AES-256-GCM under INTEGRATION_SEALING_KEY) where an
-- HMAC needs the secret itself (GitHub), a SHA-256 where comparing suffices (GitLab's token).
-- During a rotation the previous one keeps working until `previous_secret_until`.
create table integrations (
  id uuid primary key,
  workspace_id bigint not null references workspaces (id) on delete cascade,
  source text not null check (source in ('github', 'gitlab')),
  name text not null check (char_length(name) between 1 and 100),
  mapping jsonb not null default '{}' check (jsonb_typeof(mapping) = 'object'),
  secret bytea not null,
  previous_secret bytea,
  previous_secret_until timestamptz,
  created_at timestamptz not null default now(),
  check ((previous_secret is null) = (previous_secret_until is null))
);
create unique index integrations_name on integrations (workspace_id, lower(name));

-- Every delivery a receiver took, as it came (its bytes, the headers a mapping may read), then
-- what the worker made of it. A receiver answers 202 once the row is committed; `state` moves
-- from `received` to `recorded` or `ignored` in the worker's transaction that does the work, so a
-- killed worker leaves it `received`, to be done once. A delivery the sender already made (same
-- `dedupe_key`) is kept as `duplicate`, naming the first; one refused (a bad signature, a body
-- too large) is kept as `refused` without its body, so the list shows why.
create table integration_deliveries (
  id uuid primary key,
  integration_id uuid not null references integrations (id) on delete cascade,
  workspace_id bigint not null,
  received_at timestamptz not null,
  event text not null,
  sender_delivery_id text,
  dedupe_key text,
  body bytea,
  headers jsonb not null default '{}',
  state text not null check (state in ('received', 'recorded', 'duplicate', 'ignored', 'refused')),
  reason text,
  duplicate_of uuid,
  deployment_id uuid,
  -- The sender's own id of the deployment it recorded (GitHub's deployment.id, GitLab's
  -- deployment_id): a later failure status of the same deployment finds it by this.
  sender_deployment_id text,
  commit_count integer,
  handled_at timestamptz
);
-- One first delivery per sender id: the receiver's insert meets this and keeps a repeat as
-- `duplicate`.
create unique index integration_deliveries_first on integration_deliveries (integration_id, dedupe_key)
  where state not in ('duplicate', 'refused');
-- The deliveries list, newest first.
create index integration_deliveries_list on integration_deliveries (integration_id, id desc);
-- The worker's walk: what waits, oldest first.
create index integration_deliveries_waiting on integration_deliveries (id) where state = 'received';
-- A failure status finds the delivery that recorded its deployment.
create index integration_deliveries_by_sender_deployment
  on integration_deliveries (integration_id, sender_deployment_id)
  where sender_deployment_id is not null;

-- Pushes to a repository's default branch, each with the commits it listed (oldest first):
-- the chains a deployment's commits are derived from. `listed` < `total` marks a push whose
-- sender capped its list (GitHub at 2,048, GitLab at 20).
create table pushes (
  id uuid primary key,
  workspace_id bigint not null references workspaces (id) on delete cascade,
  repository_key text not null,
  before_sha text not null,
  after_sha text not null,
  forced boolean not null,
  listed integer not null,
  total integer not null,
  -- The repository's web address as the host gave it: a derived list's `webUrl`.
  web_url text,
  received_at timestamptz not null
);
create index pushes_by_after on pushes (workspace_id, repository_key, after_sha);

create table pushed_commits (
  push_id uuid not null references pushes (id) on delete cascade,
  position integer not null,
  workspace_id bigint not null,
  repository_key text not null,
  sha text not null,
  committed_at timestamptz not null,
  authored_at timestamptz not null,
  subject text,
  author text,
  message text not null,
  primary key (push_id, position)
);
create index pushed_commits_by_sha on pushed_commits (workspace_id, repository_key, sha);

-- The commits of a deployment an integration recorded, as its pushes say: `waiting` to be
-- derived (its deployment not recorded yet, or something it depends on just changed), `derived`
-- (stored through the same path as PUT /v1/deployments/{id}/commits), `unknown` (`reason` says
-- which push is missing), or `sent` (a pipeline sent the list, which wins).
create table commit_chains (
  deployment_id uuid primary key,
  workspace_id bigint not null,
  repository_key text not null,
  state text not null check (state in ('waiting', 'derived', 'unknown', 'sent')),
  reason text,
  updated_at timestamptz not null default now()
);
create index commit_chains_waiting on commit_chains (updated_at) where state = 'waiting';
create index commit_chains_unknown on commit_chains (workspace_id, repository_key)
  where state = 'unknown';

alter table audit_events drop constraint audit_events_action_check;
alter table audit_events add constraint audit_events_action_check check (action in (
  'deployment.voided', 'incident.opened', 'incident.changed', 'key.created', 'key.revoked',
  'integration.created', 'integration.changed', 'integration.secret_rotated',
  'integration.deleted'));
