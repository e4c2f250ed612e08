-- The commits a deployment delivered, as its pipeline listed them (deployment_commit_lists,
-- deployment_commits), keyed by a receipt id: the deployment's own, or that of a repeated
-- delivery (deployment_aliases), whose list is the deployment's too.

-- The deployment a receipt id names: itself, or the one a repeated delivery repeated.
create or replace function canonical_deployment(receipt uuid) returns uuid
language sql stable parallel safe as $$
  select coalesce((select a.deployment_id from deployment_aliases a where a.id = receipt), receipt)
$$;

-- The commits a deployment delivered: the lists stored under its id and under the receipt ids
-- of deliveries that repeated it, each commit once.
create or replace function delivered_commits(deployment uuid)
returns table (sha text, committed_at timestamptz, reverting boolean)
language sql stable parallel safe rows 5 as $$
  select c.sha, min(c.committed_at), bool_or(cardinality(c.reverts) > 0)
    from (select l.sha, l.committed_at, l.reverts from deployment_commits l
           where l.deployment_id = deployment
          union all
          select l.sha, l.committed_at, l.reverts
            from deployment_aliases a join deployment_commits l on l.deployment_id = a.id
           where a.deployment_id = deployment) c
   group by c.sha
$$;

-- Whether a deployment of the stream before (at, deployment) delivered the commit: a probe of
-- deployment_commits_by_sha, then of deployments_pkey per row found. A scalar subquery, so it
-- stays a probe per commit wherever it is used (as `exists`, Postgres may hash-join every
-- commit); each deployment behind `offset 0`, so it stays a key probe (joined, Postgres may
-- hash the stream's whole history). The probes of refresh_dora_facts that follow commit rows to
-- deployments are fenced the same way.
create or replace function delivered_before(commit_sha text, application bigint,
                                            environment bigint, at timestamptz, deployment uuid)
returns boolean
language sql stable parallel safe as $$
  select (select 1 from deployment_commits ec
            cross join lateral (select * from deployments probed where probed.id = canonical_deployment(ec.deployment_id) offset 0) e
           where ec.sha = commit_sha
             and e.application_id = application and e.environment_id = environment
             and e.voided_at is null
             and e.deployed_at <= at and (e.deployed_at, e.id) < (at, deployment)
           limit 1) is not null
$$;
