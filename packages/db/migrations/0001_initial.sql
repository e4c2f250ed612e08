-- Tenancy: every key belongs to one workspace, and every record to the workspace of the key that
-- reported it.
create table workspaces (
  id bigint generated always as identity primary key,
  slug text not null unique check (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  created_at timestamptz not null default now()
);

-- Only a SHA-256 of each key is kept; the plaintext is shown once by the CLI.
create table api_keys (
  id uuid primary key default gen_random_uuid(),
  workspace_id bigint not null references workspaces (id) on delete cascade,
  name text not null check (length(name) between 1 and 255),
  prefix text not null,
  key_hash bytea not null unique check (length(key_hash) = 32),
  rate_limit_per_minute integer check (rate_limit_per_minute > 0),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_prefix on api_keys (prefix);

-- The *_key columns hold the case-folded name (folded by the worker, so matching does not depend
-- on the database's collation); the first spelling seen stays in the display column.
create table repositories (
  id bigint generated always as identity primary key,
  workspace_id bigint not null references workspaces (id) on delete cascade,
  full_name text not null,
  full_name_key text not null,
  created_at timestamptz not null default now(),
  constraint repositories_unique_name unique (workspace_id, full_name_key)
);

create table environments (
  id bigint generated always as identity primary key,
  workspace_id bigint not null references workspaces (id) on delete cascade,
  name text not null,
  name_key text not null,
  created_at timestamptz not null default now(),
  constraint environments_unique_name unique (workspace_id, name_key)
);

create table applications (
  id bigint generated always as identity primary key,
  workspace_id bigint not null references workspaces (id) on delete cascade,
  repository_id bigint not null references repositories (id) on delete cascade,
  name text not null,
  name_key text not null,
  -- The monorepo path of the most recent deployment (by deployedAt) that named one.
  monorepo_path text,
  monorepo_path_deployed_at timestamptz,
  created_at timestamptz not null default now(),
  constraint applications_unique_name unique (workspace_id, repository_id, name_key)
);
create index applications_by_name on applications (workspace_id, name_key);

create table deployments (
  -- Assigned by the API when it accepts the request (UUIDv7, so ids sort by arrival).
  id uuid primary key,
  workspace_id bigint not null references workspaces (id) on delete cascade,
  application_id bigint not null references applications (id) on delete cascade,
  environment_id bigint not null references environments (id) on delete cascade,
  version text not null,
  commit_hash text not null,
  description text,
  author text,
  deployed_at timestamptz not null,
  monorepo_path text,
  received_at timestamptz not null,
  recorded_at timestamptz not null default now(),
  -- The same deployment delivered twice is recorded once.
  constraint deployments_unique_delivery
    unique (workspace_id, application_id, environment_id, version, commit_hash, deployed_at)
);
create index deployments_newest on deployments (workspace_id, deployed_at desc, id desc);
create index deployments_by_environment on deployments (environment_id, deployed_at desc, id desc);
create index deployments_by_application on deployments (application_id, deployed_at desc, id desc);

-- Idempotency-Key claims, written in the same transaction as the job they admit.
create table idempotency_keys (
  workspace_id bigint not null references workspaces (id) on delete cascade,
  key text not null,
  fingerprint bytea not null,
  deployment_id uuid not null,
  expires_at timestamptz not null,
  primary key (workspace_id, key)
);
create index idempotency_keys_expiry on idempotency_keys (expires_at);

-- The shared half of the rate limiter: API replicas lease tokens from here in chunks so that N
-- replicas never grant a key more than its quota.
create table rate_limit_buckets (
  api_key_id uuid primary key references api_keys (id) on delete cascade,
  tokens double precision not null,
  refilled_at timestamptz not null
);

-- Leases up to `wanted` whole tokens from a key's bucket in one round trip. Returns how many were
-- granted and what is left, so the caller can compute headers and the next refill itself.
create function lease_rate_limit_tokens(
  key_id uuid, wanted integer, capacity double precision, per_second double precision
) returns table (granted integer, remaining double precision)
language plpgsql as $$
declare
  available double precision;
  taken integer;
begin
  insert into rate_limit_buckets (api_key_id, tokens, refilled_at)
  values (key_id, capacity, clock_timestamp())
  on conflict (api_key_id) do nothing;

  select least(capacity, b.tokens + greatest(0, extract(epoch from clock_timestamp() - b.refilled_at)) * per_second)
    into available
    from rate_limit_buckets b where b.api_key_id = key_id for update;

  taken := least(wanted, floor(available))::integer;
  update rate_limit_buckets
     set tokens = available - taken, refilled_at = clock_timestamp()
   where api_key_id = key_id;
  return query select taken, available - taken;
end
$$;
