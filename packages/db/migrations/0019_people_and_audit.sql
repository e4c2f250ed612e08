-- People sign in to the dashboard as themselves, through the company's OpenID provider, and
-- what they (or API keys) change is kept in an audit trail (docs/sign-in.md).

-- A person as the provider last described them: (issuer, subject) is the identity, stable
-- across renames; email, name and groups are refreshed at each sign-in. Which workspaces they
-- may see, and in which role, is not stored: the role mapping (configuration) decides at every
-- request, so a person removed from it loses access at their next one.
create table people (
  id uuid primary key default gen_random_uuid(),
  issuer text not null check (char_length(issuer) between 1 and 2048),
  subject text not null check (char_length(subject) between 1 and 255),
  email text check (char_length(email) <= 320),
  name text check (char_length(name) <= 255),
  groups text[] not null default '{}',
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  unique (issuer, subject)
);

-- A sign-in under way: between the redirect to the provider and its callback. The browser holds
-- only an opaque reference (a short-lived cookie, hashed here as session tokens are); state,
-- nonce and the PKCE verifier never leave the server. Taken (deleted) by the first callback.
create table sign_in_transactions (
  token_hash bytea primary key check (length(token_hash) = 32),
  state text not null,
  nonce text not null,
  code_verifier text not null,
  next text not null,
  expires_at timestamptz not null
);
create index sign_in_transactions_expiry on sign_in_transactions (expires_at);

-- A dashboard session now speaks for a key (pasted) or for a person in one workspace. The
-- person's ID token is kept for signing out at the provider (its id_token_hint).
alter table dashboard_sessions
  alter column api_key_id drop not null,
  add column person_id uuid references people (id) on delete cascade,
  add column workspace_id bigint references workspaces (id) on delete cascade,
  add column id_token text,
  add constraint dashboard_sessions_signed_in_by check (
    (api_key_id is not null and person_id is null and workspace_id is null)
    or (api_key_id is null and person_id is not null and workspace_id is not null));

-- Who voided a deployment or opened an incident may now be a person (the columns of keys stay,
-- unconstrained, as voided_by_key always was).
alter table deployments add column voided_by_person uuid;
alter table incidents
  alter column created_by_key drop not null,
  add column created_by_person uuid;

-- What was changed, by whom, when: written in the transaction of the change itself. The actor is
-- a person, a key, or neither (the command line on the server: `bun run keys`).
create table audit_events (
  id uuid primary key default gen_random_uuid(),
  workspace_id bigint not null references workspaces (id) on delete cascade,
  at timestamptz not null default now(),
  actor_person_id uuid references people (id),
  actor_key_id uuid references api_keys (id),
  action text not null check (action in (
    'deployment.voided', 'incident.opened', 'incident.changed', 'key.created', 'key.revoked')),
  target_id uuid not null,
  details jsonb not null default '{}' check (jsonb_typeof(details) = 'object'),
  check (actor_person_id is null or actor_key_id is null)
);
-- GET /v1/audit: a workspace's events, newest first, paged by (at, id).
create index audit_events_newest on audit_events (workspace_id, at desc, id desc);
-- The history of one deployment, incident or key on its page.
create index audit_events_target on audit_events (target_id, at desc, id desc);
