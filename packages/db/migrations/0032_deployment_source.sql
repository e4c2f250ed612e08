-- Where a deployment came from: `api` (a request of someone's own), `cli` (Shiplog's
-- client: the CLI, the GitHub Action, the GitLab template), `github`, `gitlab`, and later
-- integrations. A lower-case name rather than a fixed list, so an integration adds its own
-- without a migration. The inbox carries it from the request to the row the worker records.
--
-- A constant default is metadata only on Postgres 11 and later: existing rows read it from the
-- catalog, nothing is rewritten. The check on deployments is `not valid` for the same reason:
-- every existing row holds the default, which passes, and validating would read the whole table
-- under this migration's lock for nothing; rows written from now on are checked all the same.
-- The inbox is nearly empty at every instant, so its check is validated at once.
alter table deployment_inbox
  add column source text not null default 'api'
    constraint deployment_inbox_source_name check (source ~ '^[a-z][a-z0-9-]{0,31}$');

alter table deployments
  add column source text not null default 'api',
  add constraint deployments_source_name check (source ~ '^[a-z][a-z0-9-]{0,31}$') not valid;
