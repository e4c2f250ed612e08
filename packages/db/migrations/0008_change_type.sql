-- What a deployment changed in its application and environment, from the deployments before it
-- (by deployedAt, then id): 'initial' (none), 'redeploy' (the same commit as the one before),
-- 'rollback' (a commit an earlier deployment delivered, other than the one before), 'forward'
-- (otherwise). Computed when read, never stored: a backfill arriving late, or a deployment
-- voided, changes its neighbours' answers, and a stored value would have to be rewritten.
-- Two index probes: the one before (deployments_unique_delivery, backwards from deployedAt) and
-- an earlier one with the same commit (deployments_by_commit_prefix).
create function change_type(application bigint, environment bigint, at timestamptz, deployment uuid,
                            commit text) returns text
language sql stable parallel safe as $$
  select case
           when before.commit_hash is null then 'initial'
           when before.commit_hash = commit then 'redeploy'
           when exists (
             select 1 from deployments e
              where left(e.commit_hash, 7) collate "C" = left(commit, 7) collate "C"
                and e.commit_hash = commit
                and e.application_id = application and e.environment_id = environment
                and e.deployed_at <= at and (e.deployed_at, e.id) < (at, deployment)) then 'rollback'
           else 'forward'
         end
    from (select) one
    left join lateral (
      select p.commit_hash from deployments p
       where p.application_id = application and p.environment_id = environment
         and p.deployed_at <= at and (p.deployed_at, p.id) < (at, deployment)
       order by p.deployed_at desc, p.id desc
       limit 1) before on true
$$;
