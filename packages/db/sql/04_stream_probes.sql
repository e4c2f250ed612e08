-- The deployment just before or after another in its stream (an application in an environment,
-- by deployedAt, then id, voided ones left out), and the one just before or after it of the same
-- commit: the probes behind change types, DORA facts and failures, each a function so every
-- caller probes the same way.
--
-- Each probe is two, so it stops at its first row whatever Postgres's statistics say (a young
-- table's say every stream is small, and `order by deployed_at desc, id desc limit 1` then read
-- and sorted a whole stream per deployment a batch recorded):
-- - the nearest deployedAt, by an index walk in that order that stops at its first row
--   (deployments_unique_delivery for the stream; for the commit, deployments_by_commit_prefix,
--   keyed by its first seven digits, application, environment and deployedAt);
-- - among the deployments at that instant (rarely more than one), the nearest id.
-- Not strict, so Postgres inlines them into the queries that call them from FROM.

create or replace function deployment_before(application bigint, environment bigint,
                                             at timestamptz, deployment uuid)
returns setof deployments
language sql stable parallel safe rows 1 as $$
  select p.* from deployments p
   where p.application_id = application and p.environment_id = environment
     and p.voided_at is null
     and p.deployed_at = (
       select q.deployed_at from deployments q
        where q.application_id = application and q.environment_id = environment
          and q.voided_at is null
          and q.deployed_at <= at and (q.deployed_at, q.id) < (at, deployment)
        order by q.deployed_at desc
        limit 1)
     and (p.deployed_at, p.id) < (at, deployment)
   order by p.id desc
   limit 1
$$;

create or replace function deployment_after(application bigint, environment bigint,
                                            at timestamptz, deployment uuid)
returns setof deployments
language sql stable parallel safe rows 1 as $$
  select n.* from deployments n
   where n.application_id = application and n.environment_id = environment
     and n.voided_at is null
     and n.deployed_at = (
       select q.deployed_at from deployments q
        where q.application_id = application and q.environment_id = environment
          and q.voided_at is null
          and q.deployed_at >= at and (q.deployed_at, q.id) > (at, deployment)
        order by q.deployed_at
        limit 1)
     and (n.deployed_at, n.id) > (at, deployment)
   order by n.id
   limit 1
$$;

create or replace function commit_deployment_before(commit text, application bigint,
                                                    environment bigint, at timestamptz,
                                                    deployment uuid)
returns setof deployments
language sql stable parallel safe rows 1 as $$
  select e.* from deployments e
   where left(e.commit_hash, 7) collate "C" = left(commit, 7) collate "C"
     and e.application_id = application and e.environment_id = environment
     and e.commit_hash = commit and e.voided_at is null
     and e.deployed_at = (
       select c.deployed_at from deployments c
        where left(c.commit_hash, 7) collate "C" = left(commit, 7) collate "C"
          and c.application_id = application and c.environment_id = environment
          and c.commit_hash = commit and c.voided_at is null
          and c.deployed_at <= at and (c.deployed_at, c.id) < (at, deployment)
        order by c.deployed_at desc
        limit 1)
     and (e.deployed_at, e.id) < (at, deployment)
   order by e.id desc
   limit 1
$$;

create or replace function commit_deployment_after(commit text, application bigint,
                                                   environment bigint, at timestamptz,
                                                   deployment uuid)
returns setof deployments
language sql stable parallel safe rows 1 as $$
  select e.* from deployments e
   where left(e.commit_hash, 7) collate "C" = left(commit, 7) collate "C"
     and e.application_id = application and e.environment_id = environment
     and e.commit_hash = commit and e.voided_at is null
     and e.deployed_at = (
       select c.deployed_at from deployments c
        where left(c.commit_hash, 7) collate "C" = left(commit, 7) collate "C"
          and c.application_id = application and c.environment_id = environment
          and c.commit_hash = commit and c.voided_at is null
          and c.deployed_at >= at and (c.deployed_at, c.id) > (at, deployment)
        order by c.deployed_at
        limit 1)
     and (e.deployed_at, e.id) > (at, deployment)
   order by e.id
   limit 1
$$;

-- The same for a deployment whose commit is unknown (docs/dora.md): the version is all that says
-- what it delivered, so the nearest earlier or later deployment of its stream whose commit is
-- unknown too and whose version is the same, through deployments_unique_delivery_commit_unknown,
-- in two steps as above so a version deployed many times costs one index step.
create or replace function version_deployment_before(of_version text, application bigint,
                                                     environment bigint, at timestamptz,
                                                     deployment uuid)
returns setof deployments
language sql stable parallel safe rows 1 as $$
  select e.* from deployments e
   where e.application_id = application and e.environment_id = environment
     and e.version = of_version and e.commit_hash is null and e.voided_at is null
     and e.deployed_at = (
       select c.deployed_at from deployments c
        where c.application_id = application and c.environment_id = environment
          and c.version = of_version and c.commit_hash is null and c.voided_at is null
          and c.deployed_at <= at and (c.deployed_at, c.id) < (at, deployment)
        order by c.deployed_at desc
        limit 1)
     and (e.deployed_at, e.id) < (at, deployment)
   order by e.id desc
   limit 1
$$;

create or replace function version_deployment_after(of_version text, application bigint,
                                                    environment bigint, at timestamptz,
                                                    deployment uuid)
returns setof deployments
language sql stable parallel safe rows 1 as $$
  select e.* from deployments e
   where e.application_id = application and e.environment_id = environment
     and e.version = of_version and e.commit_hash is null and e.voided_at is null
     and e.deployed_at = (
       select c.deployed_at from deployments c
        where c.application_id = application and c.environment_id = environment
          and c.version = of_version and c.commit_hash is null and c.voided_at is null
          and c.deployed_at >= at and (c.deployed_at, c.id) > (at, deployment)
        order by c.deployed_at
        limit 1)
     and (e.deployed_at, e.id) > (at, deployment)
   order by e.id
   limit 1
$$;

-- The nearest earlier or later deployment of the stream that delivered the same thing, the one a
-- rollback returns to: the same commit, or where the commit is unknown the same version
-- (docs/dora.md). The one rule change_type, the DORA facts and their refresh all probe by.
create or replace function same_delivery_before(commit text, of_version text, application bigint,
                                                environment bigint, at timestamptz,
                                                deployment uuid)
returns setof deployments
language sql stable parallel safe rows 1 as $$
  select * from commit_deployment_before(commit, application, environment, at, deployment)
   where commit is not null
  union all
  select * from version_deployment_before(of_version, application, environment, at, deployment)
   where commit is null
$$;

create or replace function same_delivery_after(commit text, of_version text, application bigint,
                                               environment bigint, at timestamptz,
                                               deployment uuid)
returns setof deployments
language sql stable parallel safe rows 1 as $$
  select * from commit_deployment_after(commit, application, environment, at, deployment)
   where commit is not null
  union all
  select * from version_deployment_after(of_version, application, environment, at, deployment)
   where commit is null
$$;
