-- Dashboard sign-in: a person pastes an API key with the read scope once, and the browser gets
-- an opaque session cookie instead, whose hash is kept here (as keys are). The key itself is
-- never stored again, only which key signed in: a session ends at its expiry, at sign-out, or as
-- soon as its key is revoked (every request checks the key, as the API does).
create table dashboard_sessions (
  token_hash bytea primary key check (length(token_hash) = 32),
  api_key_id uuid not null references api_keys (id) on delete cascade,
  -- Sent back by every form of the session (CSRF), compared with what the session holds.
  csrf_token text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index dashboard_sessions_expiry on dashboard_sessions (expires_at);
