-- A deployment whose sender names no commit (a CDEvent without customData.commit, a Helm chart
-- version from Argo CD or Flux) is recorded with its commit unknown: null, never a made-up SHA
-- (issue 45; decisions §9). The API still requires commitHash: only integrations write null.
alter table deployment_inbox alter column commit_hash drop not null;
alter table deployments alter column commit_hash drop not null;
alter table deployment_cells alter column latest_commit_hash drop not null;

-- deployments_unique_delivery keys version || '/' || commit_hash, null for these: the same
-- deployment delivered twice is caught here instead. Partial, so only such rows pay for it and
-- the delivery index of millions of rows is not rebuilt. Version before deployedAt: it is also
-- the probe for the latest earlier deployment of the same version (a rollback, where the
-- version is all that says what was delivered: 04_stream_probes.sql).
create unique index deployments_unique_delivery_commit_unknown
  on deployments (application_id, environment_id, version, deployed_at)
  where commit_hash is null;

-- The change type now weighs versions where a commit is unknown, so it takes the version, and
-- the facts' probe takes the deployment before each (its commit, version and existence) by id.
drop function if exists change_type(bigint, bigint, timestamptz, uuid, text);
drop function if exists dora_facts_of(uuid[], text[]);
