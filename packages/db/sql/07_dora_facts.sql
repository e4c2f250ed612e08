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
  select d.id, d.application_id, d.environment_id, d.deployed_at, d.commit_hash, d.version,
         lag(d.id) over by_stream as previous_id,
         lag(d.commit_hash) over by_stream as previous_commit,
         lag(d.version) over by_stream as previous_version,
         lag(d.id) over by_commit as earlier_same_commit
    from deployments d
   where d.voided_at is null
  window by_stream as (partition by d.application_id, d.environment_id order by d.deployed_at, d.id),
         -- A commit unknown: the version says what was delivered (same_change).
         by_commit as (partition by d.application_id, d.environment_id, d.commit_hash,
                                    case when d.commit_hash is null then d.version end
                       order by d.deployed_at, d.id)
),
typed as (
  select s.*,
         case when s.previous_id is null then 'initial'
              when same_change(s.previous_commit, s.previous_version, s.commit_hash, s.version)
                then 'redeploy'
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
-- `previous_ids` holds, for each id, the deployment before it when the caller knows it
-- (refresh_dora_facts does for a batch appended to its streams), or null: then it is probed. The
-- earlier deployment of its commit is probed only where it decides the change type (a previous
-- that delivered something else: a rollback or a forward).
create or replace function dora_facts_of(ids uuid[], previous_ids uuid[])
returns setof deployment_dora_facts
language sql stable parallel safe as $$
  select facts.*
    from unnest(ids, previous_ids) as given(id, previous_id)
    join deployments d on d.id = given.id
    left join lateral (
      select p.id, p.commit_hash, p.version from deployments p where p.id = given.previous_id
      union all
      select p.id, p.commit_hash, p.version
        from deployment_before(d.application_id, d.environment_id, d.deployed_at, d.id) p
       where given.previous_id is null) as previous_of on true
    cross join lateral (
      select case when previous_of.id is not null
                   and not same_change(previous_of.commit_hash, previous_of.version,
                                       d.commit_hash, d.version) then
               (select e.id
                  from same_delivery_before(d.commit_hash, d.version, d.application_id,
                                            d.environment_id, d.deployed_at, d.id) e) end as id)
      as earlier_same_commit
    cross join lateral (
      select case when previous_of.id is null then 'initial'
                  when same_change(previous_of.commit_hash, previous_of.version,
                                   d.commit_hash, d.version) then 'redeploy'
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
   where d.voided_at is null
     and (facts.change_type <> 'forward' or facts.reverts or cardinality(facts.lead_seconds) > 0)
$$;

-- Recomputes the rows of every deployment whose facts may change when the deployments `moved`
-- enter or leave their streams (recorded, voided), or when the commits `shas` of `owners` are
-- stored or removed. The caller holds the locks of those streams' deployment_cells rows, so
-- no other writer changes them meanwhile. Besides the deployments themselves, a change at one
-- place of a stream reaches:
-- - the next deployment (its previous changed: its change type);
-- - the next deployment of the same commit, or where the commit is unknown of the same version
--   (whether it is a rollback, and its target);
-- - for each commit delivered there, the next deployment that delivers it too (whether it is
--   the first delivery).
-- `streams_before`: for a batch recorded, its streams' deployment_cells rows as they were before
-- it (lock_cells_of). A deployment after its stream's latest then is appended: whatever follows
-- it in its stream is of the batch, so none of the three is probed for it, and its previous is
-- that latest or the batch's deployment before it. A live deployment, the usual one, costs no
-- walk of the stream index, and none of the commit index for what comes after it.
-- Without JIT: its statements are index probes, which compiling would only slow.
create or replace function refresh_dora_facts(moved uuid[], owners uuid[], shas text[],
                                              streams_before deployment_cells[])
returns void
language plpgsql set jit = off as $$
declare
  affected uuid[];
  previous_ids uuid[];
begin
  with placed as (
    -- The moved deployments among their streams' latest before them, in stream order: a
    -- deployment after its stream's latest is appended, and the row before it is its previous.
    select p.*,
           coalesce(bool_or(p.is_latest_before) over earlier, false) as appended,
           lag(p.id) over (partition by p.application_id, p.environment_id
                           order by p.deployed_at, p.id) as previous_id
      from (select d.id, d.application_id, d.environment_id, d.deployed_at, d.commit_hash,
                   d.version, false as is_latest_before
              from deployments d where d.id = any(moved)
            union all
            select c.latest_id, c.application_id, c.environment_id, c.latest_deployed_at,
                   c.latest_commit_hash, c.latest_version, true
              from unnest(streams_before) c) p
    window earlier as (partition by p.application_id, p.environment_id
                       order by p.deployed_at, p.id
                       rows between unbounded preceding and 1 preceding)
  ),
  changes as (
    select id, application_id, environment_id, deployed_at, commit_hash, version, appended,
           case when appended then previous_id end as previous_id
      from placed where not is_latest_before
  ),
  commit_changes as (
    select d.id, d.application_id, d.environment_id, d.deployed_at, c.sha, d.appended
      from changes d cross join lateral delivered_commits(d.id) c
    union
    select d.id, d.application_id, d.environment_id, d.deployed_at, given.sha, false
      from unnest(owners, shas) as given(owner, sha)
      join deployments d on d.id = canonical_deployment(given.owner)
  )
  -- Each deployment once, with the deployment before it where known.
  select array_agg(id), array_agg(previous_id) into affected, previous_ids
    from (select id, (array_agg(previous_id) filter (where previous_id is not null))[1] as previous_id from (
      select id, previous_id from changes
      union all
      select (select n.id
                from deployment_after(c.application_id, c.environment_id, c.deployed_at, c.id) n), null
        from changes c where not c.appended
      union all
      select (select n.id
                from same_delivery_after(c.commit_hash, c.version, c.application_id,
                                         c.environment_id, c.deployed_at, c.id) n), null
        from changes c where not c.appended
      union all
      select id, null from commit_changes
      union all
      select (select e.id from deployment_commits ec
                cross join lateral (select * from deployments probed where probed.id = canonical_deployment(ec.deployment_id) offset 0) e
               where ec.sha = c.sha
                 and e.application_id = c.application_id and e.environment_id = c.environment_id
                 and e.voided_at is null
                 and e.deployed_at >= c.deployed_at and (e.deployed_at, e.id) > (c.deployed_at, c.id)
               order by e.deployed_at, e.id
               limit 1), null
        from commit_changes c where not c.appended
    ) reached(id, previous_id)
    where id is not null
    group by id) once;

  if affected is null then return; end if;
  delete from deployment_dora_facts where deployment_id = any(affected);
  insert into deployment_dora_facts select * from dora_facts_of(affected, previous_ids);
end
$$;
