-- The deployment just before or after another in its stream (an application in an environment,
-- by deployedAt, then id), and the one just before or after it of the same commit: the probes
-- behind change types, DORA facts and failures, each a function so every caller probes the same
-- way.
--
-- They were written as `order by deployed_at desc, id desc limit 1` over
-- deployments_unique_delivery, which orders by deployedAt only. When Postgres's statistics said
-- a stream was small (a young or fast-growing table: a backfill into a new installation), it
-- read every earlier deployment of the stream and sorted them, for each deployment a batch
-- recorded; and it looked for an earlier deployment of the same commit by walking the stream
-- too, to its start when there was none. The worker's drain of 20,000 deployments (a release
-- train, `apps/bench/src/fixtures.ts`) ran at 3,600 recorded/s on PostgreSQL 15, 1,100 when every
-- deployment had the same commit and a thousand shared each instant. Now each probe is two:
-- - the nearest deployedAt, by an index walk in that order that stops at its first row
--   (deployments_unique_delivery for the stream; for the commit, deployments_by_commit_prefix,
--   now keyed by its first seven digits, application, environment and deployedAt);
-- - among the deployments at that instant (rarely more than one), the nearest id.
-- An index in full stream order (deployedAt, id) would have made each one probe, at about 60
-- bytes per deployment for the stream and 36 more for the commit; this costs 18.

drop index deployments_by_commit_prefix;
create index deployments_by_commit_prefix on deployments
  ((left(commit_hash, 7) collate "C"), application_id, environment_id, deployed_at);

-- Not strict, so Postgres inlines them into the queries that call them from FROM.
create function deployment_before(application bigint, environment bigint, at timestamptz,
                                  deployment uuid) returns setof deployments
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

create function deployment_after(application bigint, environment bigint, at timestamptz,
                                 deployment uuid) returns setof deployments
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

create function commit_deployment_before(commit text, application bigint, environment bigint,
                                         at timestamptz, deployment uuid)
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

create function commit_deployment_after(commit text, application bigint, environment bigint,
                                        at timestamptz, deployment uuid)
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

create or replace function dora_facts_of(ids uuid[])
returns setof deployment_dora_facts
language sql stable parallel safe as $$
  select facts.*
    from deployments d
    left join lateral deployment_before(d.application_id, d.environment_id, d.deployed_at, d.id)
      as previous_of on true
    left join lateral commit_deployment_before(d.commit_hash, d.application_id, d.environment_id,
                                               d.deployed_at, d.id)
      as earlier_same_commit on true
    cross join lateral (
      select case when previous_of.commit_hash is null then 'initial'
                  when previous_of.commit_hash = d.commit_hash then 'redeploy'
                  when earlier_same_commit.id is not null then 'rollback'
                  else 'forward' end as change_type) as typed
    -- Its commits read once for both: whether one reverts another, and the lead times of those
    -- it delivered first (ascending seconds: latest committer time first).
    cross join lateral (
      select coalesce(bool_or(c.reverting), false) as reverts,
             coalesce(array_agg(extract(epoch from d.deployed_at - c.committed_at)::float8
                                order by c.committed_at desc)
                        filter (where typed.change_type <> 'initial'
                                  and not delivered_before(c.sha, d.application_id, d.environment_id,
                                                           d.deployed_at, d.id)),
                      '{}'::float8[]) as lead_seconds
        from delivered_commits(d.id) c) as delivered
    cross join lateral (
      select d.id as deployment_id, d.environment_id, d.application_id, d.deployed_at,
             typed.change_type,
             case when typed.change_type = 'rollback' then earlier_same_commit.id end as rollback_target,
             delivered.reverts, delivered.lead_seconds) as facts
   where d.id = any(ids) and d.voided_at is null
     and (facts.change_type <> 'forward' or facts.reverts or cardinality(facts.lead_seconds) > 0)
$$;

-- As in 0014, with the stream probes above.
create or replace function refresh_dora_facts(moved uuid[], owners uuid[], shas text[]) returns void
language plpgsql set jit = off as $$
declare
  affected uuid[];
begin
  with changes as (
    select d.id, d.application_id, d.environment_id, d.deployed_at, d.commit_hash
      from deployments d where d.id = any(moved)
  ),
  commit_changes as (
    select d.id, d.application_id, d.environment_id, d.deployed_at, c.sha
      from changes d cross join lateral delivered_commits(d.id) c
    union
    select d.id, d.application_id, d.environment_id, d.deployed_at, given.sha
      from unnest(owners, shas) as given(owner, sha)
      join deployments d on d.id = canonical_deployment(given.owner)
  )
  select array_agg(distinct id) into affected from (
    select id from changes
    union all
    select (select n.id
              from deployment_after(c.application_id, c.environment_id, c.deployed_at, c.id) n)
      from changes c
    union all
    select (select n.id
              from commit_deployment_after(c.commit_hash, c.application_id, c.environment_id,
                                           c.deployed_at, c.id) n)
      from changes c
    union all
    select id from commit_changes
    union all
    select (select e.id from deployment_commits ec
              cross join lateral (select * from deployments probed where probed.id = canonical_deployment(ec.deployment_id) offset 0) e
             where ec.sha = c.sha
               and e.application_id = c.application_id and e.environment_id = c.environment_id
               and e.voided_at is null
               and e.deployed_at >= c.deployed_at and (e.deployed_at, e.id) > (c.deployed_at, c.id)
             order by e.deployed_at, e.id
             limit 1)
      from commit_changes c
  ) reached
  where id is not null;

  if affected is null then return; end if;
  delete from deployment_dora_facts where deployment_id = any(affected);
  insert into deployment_dora_facts select * from dora_facts_of(affected);
end
$$;
