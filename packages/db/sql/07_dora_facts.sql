-- What the DORA keys need of each deployment (deployment_dora_facts), stored rather than
-- recomputed from the history at every read. The triggers of 09_triggers.sql keep it exact in the
-- transactions that write deployments, voids, repeated deliveries and commit lists, whatever the
-- arrival order, through refresh_dora_facts; `bun run db:verify` compares it with
-- expected_deployment_dora_facts.
--
-- A deployment has a row only when it holds something: a change type other than 'forward', a
-- commit that reverts another which it was the first of its stream to deliver (`reverts`: a
-- revert re-delivered after a rollback, or sent again in a later list, signals nothing there), or
-- commits it was the first to deliver. Every column is a function of the stream's deployments and
-- of the union of the commit lists stored for them, whatever order they arrived in: a deployment
-- that arrives before an earlier one is recomputed when the earlier one (or its list) arrives,
-- by refresh_dora_facts. Failures are not stored:
-- they point backwards (a rollback fails the deployment after its target, a revert fails the
-- first delivery of what it reverts, an incident names its cause), and the few signals of a
-- window are followed at read time from these rows (queries/dora.ts).

-- What the table must hold, from the deployments that are not voided, by whole-history window
-- functions: the rebuild and `bun run db:verify` use it. The triggers compute the same rows
-- another way (dora_facts_of: index probes per deployment).
create or replace view expected_deployment_dora_facts as
with stream as (
  select d.id, d.application_id, d.environment_id, d.deployed_at, d.commit_hash,
         lag(d.commit_hash) over by_stream as previous_commit,
         lag(d.id) over by_commit as earlier_same_commit
    from deployments d
   where d.voided_at is null
  window by_stream as (partition by d.application_id, d.environment_id order by d.deployed_at, d.id),
         by_commit as (partition by d.application_id, d.environment_id, d.commit_hash
                       order by d.deployed_at, d.id)
),
typed as (
  select s.*,
         case when s.previous_commit is null then 'initial'
              when s.previous_commit = s.commit_hash then 'redeploy'
              when s.earlier_same_commit is not null then 'rollback'
              else 'forward' end as change_type
    from stream s
),
delivered as (
  select canonical_deployment(c.deployment_id) as deployment_id, c.sha,
         min(c.committed_at) as committed_at, bool_or(cardinality(c.reverts) > 0) as reverting
    from deployment_commits c
   group by 1, 2
),
first_deliveries as (
  select distinct on (t.application_id, t.environment_id, dl.sha)
         t.id, extract(epoch from t.deployed_at - dl.committed_at)::float8 as seconds,
         dl.reverting
    from delivered dl join typed t on t.id = dl.deployment_id
   order by t.application_id, t.environment_id, dl.sha, t.deployed_at, t.id
),
-- A revert signals where its commit is first delivered, as lead time counts commits there.
reverting as (
  select id as deployment_id, bool_or(reverting) as reverts from first_deliveries group by id
),
leads as (
  select id, array_agg(seconds order by seconds) as lead_seconds from first_deliveries group by id
),
-- Joined, not correlated: a subquery over a CTE per row would scan it once per deployment.
facts as (
  select t.id as deployment_id, t.environment_id, t.application_id, t.deployed_at, t.change_type,
         case when t.change_type = 'rollback' then t.earlier_same_commit end as rollback_target,
         coalesce(r.reverts, false) as reverts,
         case when t.change_type = 'initial' then '{}'::float8[]
              else coalesce(l.lead_seconds, '{}'::float8[]) end as lead_seconds
    from typed t
    left join reverting r on r.deployment_id = t.id
    left join leads l on l.id = t.id
)
select * from facts
 where change_type <> 'forward' or reverts or cardinality(lead_seconds) > 0;

-- The rows of the given deployments (those recorded and not voided that hold something), each
-- from a few index probes: the one before it and the latest earlier of its commit
-- (04_stream_probes.sql), and per commit an earlier delivery (delivered_before).
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
    -- Its commits read once for both, each probed once for an earlier delivery: whether one it
    -- delivered first reverts another, and the lead times of those it delivered first
    -- (ascending seconds: latest committer time first).
    cross join lateral (
      select coalesce(bool_or(c.reverting) filter (where c.first), false) as reverts,
             coalesce(array_agg(extract(epoch from d.deployed_at - c.committed_at)::float8
                                order by c.committed_at desc)
                        filter (where typed.change_type <> 'initial' and c.first),
                      '{}'::float8[]) as lead_seconds
        from (select dc.committed_at, dc.reverting,
                     not delivered_before(dc.sha, d.application_id, d.environment_id,
                                          d.deployed_at, d.id) as first
                from delivered_commits(d.id) dc) c) as delivered
    cross join lateral (
      select d.id as deployment_id, d.environment_id, d.application_id, d.deployed_at,
             typed.change_type,
             case when typed.change_type = 'rollback' then earlier_same_commit.id end as rollback_target,
             delivered.reverts, delivered.lead_seconds) as facts
   where d.id = any(ids) and d.voided_at is null
     and (facts.change_type <> 'forward' or facts.reverts or cardinality(facts.lead_seconds) > 0)
$$;

-- Recomputes the rows of every deployment whose facts may change when the deployments `moved`
-- enter or leave their streams (recorded, voided), or when the commits `shas` of `owners` are
-- stored or removed. The caller holds the locks of those streams' deployment_cells rows, so
-- no other writer changes them meanwhile. Besides the deployments themselves, a change at one
-- place of a stream reaches:
-- - the next deployment (its previous changed: its change type);
-- - the next deployment of the same commit (whether it is a rollback, and its target);
-- - for each commit delivered there, the next deployment that delivers it too (whether it is
--   the first delivery).
-- The newest deployment of its stream (its cell's latest: the read model is written first, in
-- the same transaction) has nothing after it, so none of the three is probed for it: a live
-- deployment, the usual one, costs no walk of the commit index for what comes after.
-- Without JIT: its statements are index probes, which compiling would only slow.
create or replace function refresh_dora_facts(moved uuid[], owners uuid[], shas text[])
returns void
language plpgsql set jit = off as $$
declare
  affected uuid[];
begin
  with changes as (
    select d.id, d.application_id, d.environment_id, d.deployed_at, d.commit_hash,
           exists (select from deployment_cells cell
                    where cell.workspace_id = d.workspace_id
                      and cell.application_id = d.application_id
                      and cell.environment_id = d.environment_id
                      and cell.latest_id = d.id) as newest
      from deployments d where d.id = any(moved)
  ),
  commit_changes as (
    select d.id, d.application_id, d.environment_id, d.deployed_at, c.sha, d.newest
      from changes d cross join lateral delivered_commits(d.id) c
    union
    select d.id, d.application_id, d.environment_id, d.deployed_at, given.sha, false
      from unnest(owners, shas) as given(owner, sha)
      join deployments d on d.id = canonical_deployment(given.owner)
  )
  select array_agg(distinct id) into affected from (
    select id from changes
    union all
    select (select n.id
              from deployment_after(c.application_id, c.environment_id, c.deployed_at, c.id) n)
      from changes c where not c.newest
    union all
    select (select n.id
              from commit_deployment_after(c.commit_hash, c.application_id, c.environment_id,
                                           c.deployed_at, c.id) n)
      from changes c where not c.newest
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
      from commit_changes c where not c.newest
  ) reached
  where id is not null;

  if affected is null then return; end if;
  delete from deployment_dora_facts where deployment_id = any(affected);
  insert into deployment_dora_facts select * from dora_facts_of(affected);
end
$$;
