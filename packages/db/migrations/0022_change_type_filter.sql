-- GET /v1/deployments?changeType=rollback (or initial, redeploy): the few deployments of a type
-- other than 'forward' are found from their DORA facts (every such deployment has a row there)
-- rather than by computing the change type of every deployment of the workspace until a page is
-- full: an index-only scan of this small index, per environment of the workspace.
create index deployment_dora_facts_change_type on deployment_dora_facts
  (environment_id, change_type, deployed_at) include (application_id, deployment_id)
  where change_type <> 'forward';
