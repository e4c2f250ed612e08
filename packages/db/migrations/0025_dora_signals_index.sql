-- A window's figures follow every failure signal known now, also those of deployments after its
-- end (docs/dora.md): the rollbacks and reverting deployments of an environment from `until` on,
-- read by this small index (a few rows in a hundred), not by the window index's range to now.
create index deployment_dora_facts_signals on deployment_dora_facts (environment_id, deployed_at)
  include (application_id, deployment_id, change_type, rollback_target, reverts)
  where change_type = 'rollback' or reverts;
