-- What a deployment changed in its application and environment, from the deployments before it
-- that are not voided (04_stream_probes.sql): 'initial' (none), 'redeploy' (the same commit as
-- the one before), 'rollback' (a commit an earlier deployment delivered, other than the one
-- before), 'forward' (otherwise). Computed when read, never stored here: a backfill arriving
-- late, or a deployment voided, changes its neighbours' answers. (The DORA facts store it, and
-- their triggers rewrite the neighbours: 07_dora_facts.sql.)
create or replace function change_type(application bigint, environment bigint, at timestamptz,
                                       deployment uuid, commit text) returns text
language sql stable parallel safe as $$
  select case
           when before.commit_hash is null then 'initial'
           when before.commit_hash = commit then 'redeploy'
           when exists (select 1 from commit_deployment_before(commit, application, environment,
                                                               at, deployment)) then 'rollback'
           else 'forward'
         end
    from (select) one
    left join lateral deployment_before(application, environment, at, deployment) before on true
$$;
