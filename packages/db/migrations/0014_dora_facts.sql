-- What the DORA keys need of each deployment, stored rather than recomputed from the history at
-- every read: a year of one environment at 1M deployments and 5M commits took seconds to
-- recompute (window functions over the history, and an anti-join of every commit against every
-- earlier delivery). Like the read model of 0004, triggers keep it exact in the transactions
-- that write deployments, voids, repeated deliveries and commit lists, whatever the arrival
-- order; `bun run db:verify` compares it with expected_deployment_dora_facts below.
--
-- A deployment has a row only when it holds something: a change type other than 'forward', a
-- commit that reverts another, or commits it was the first to deliver. Without commits, most
-- deployments are forward and cost nothing here.
--
-- Failures are not stored: they point backwards (a rollback fails the deployment after its
-- target, a revert fails the first delivery of what it reverts, an incident names its cause),
-- and the few signals of a window are followed at read time from these rows (queries/dora.ts).

-- Writers wait, so the fill below and the triggers start together.
lock table deployments in share row exclusive mode;
lock table deployment_commits in share row exclusive mode;
lock table deployment_aliases in share row exclusive mode;

create table deployment_dora_facts (
  deployment_id uuid primary key references deployments (id) on delete cascade,
  environment_id bigint not null,
  application_id bigint not null,
  deployed_at timestamptz not null,
  change_type text not null check (change_type in ('initial', 'redeploy', 'rollback', 'forward')),
  -- A rollback's target: the latest earlier deployment of its commit.
  rollback_target uuid,
  -- One of its commits reverts another (a failure signal, followed when read).
  reverts boolean not null,
  -- For each commit it was the first of its application to deliver to the environment, its
  -- deployedAt minus the commit's committer time, ascending; empty for an initial deployment.
  lead_seconds float8[] not null,
  check ((change_type = 'rollback') = (rollback_target is not null))
);
-- The window of one environment, oldest first.
create index deployment_dora_facts_window on deployment_dora_facts (environment_id, deployed_at);
-- A deployment's receipt asks whether a rollback returned past it (queries/change-failure.ts).
create index deployment_dora_facts_rollback_target on deployment_dora_facts (rollback_target)
  where rollback_target is not null;
-- ... and whether a later commit reverts one it delivered.
create index deployment_commits_reverted on deployment_commits using gin (reverts)
  where cardinality(reverts) > 0;

-- A deployment's repeated deliveries, whose commit lists are its own too.
create index deployment_aliases_by_deployment on deployment_aliases (deployment_id);

-- The deployment a receipt id names: itself, or the one a repeated delivery repeated.
create function canonical_deployment(receipt uuid) returns uuid
language sql stable parallel safe as $$
  select coalesce((select a.deployment_id from deployment_aliases a where a.id = receipt), receipt)
$$;

-- The commits a deployment delivered: the lists stored under its id and under the receipt ids
-- of deliveries that repeated it, each commit once.
create function delivered_commits(deployment uuid)
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
-- hash the stream's whole history). The probes below that follow commit rows to deployments
-- are fenced the same way.
create function delivered_before(commit_sha text, application bigint, environment bigint,
                                 at timestamptz, deployment uuid) returns boolean
language sql stable parallel safe as $$
  select (select 1 from deployment_commits ec
            cross join lateral (select * from deployments probed where probed.id = canonical_deployment(ec.deployment_id) offset 0) e
           where ec.sha = commit_sha
             and e.application_id = application and e.environment_id = environment
             and e.voided_at is null
             and e.deployed_at <= at and (e.deployed_at, e.id) < (at, deployment)
           limit 1) is not null
$$;

-- What the table must hold, from the deployments that are not voided, by whole-history window
-- functions: the fill, the rebuild and `bun run db:verify` use it. The triggers compute the
-- same rows another way (dora_facts_of: index probes per deployment).
create view expected_deployment_dora_facts as
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
         t.id, extract(epoch from t.deployed_at - dl.committed_at)::float8 as seconds
    from delivered dl join typed t on t.id = dl.deployment_id
   order by t.application_id, t.environment_id, dl.sha, t.deployed_at, t.id
),
reverting as (
  select deployment_id, bool_or(reverting) as reverts from delivered group by deployment_id
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
-- from a few index probes: the one before it (deployments_unique_delivery), the latest earlier
-- of its commit (deployments_by_commit_prefix), and per commit an earlier delivery
-- (deployment_commits_by_sha).
create function dora_facts_of(ids uuid[])
returns setof deployment_dora_facts
language sql stable parallel safe as $$
  select facts.*
    from deployments d
    left join lateral (
      select p.commit_hash from deployments p
       where p.application_id = d.application_id and p.environment_id = d.environment_id
         and p.voided_at is null
         and p.deployed_at <= d.deployed_at and (p.deployed_at, p.id) < (d.deployed_at, d.id)
       order by p.deployed_at desc, p.id desc
       limit 1) as previous_of on true
    left join lateral (
      select e.id from deployments e
       where left(e.commit_hash, 7) collate "C" = left(d.commit_hash, 7) collate "C"
         and e.commit_hash = d.commit_hash
         and e.application_id = d.application_id and e.environment_id = d.environment_id
         and e.voided_at is null
         and e.deployed_at <= d.deployed_at and (e.deployed_at, e.id) < (d.deployed_at, d.id)
       order by e.deployed_at desc, e.id desc
       limit 1) as earlier_same_commit on true
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

-- Recomputes the rows of every deployment whose facts may change when the deployments `moved`
-- enter or leave their streams (recorded, voided), or when the commits `shas` of `owners` are
-- stored or removed. The caller holds the locks of those streams' deployment_cells rows, so
-- no other writer changes them meanwhile. Besides the deployments themselves, a change at one
-- place of a stream reaches:
-- - the next deployment (its previous changed: its change type);
-- - the next deployment of the same commit (whether it is a rollback, and its target);
-- - for each commit delivered there, the next deployment that delivers it too (whether it is
--   the first delivery).
-- Without JIT: its statements are index probes, which compiling would only slow.
create function refresh_dora_facts(moved uuid[], owners uuid[], shas text[]) returns void
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
    select id from commit_changes
    union all
    select (select n.id from deployments n
             where n.application_id = c.application_id and n.environment_id = c.environment_id
               and n.voided_at is null
               and n.deployed_at >= c.deployed_at and (n.deployed_at, n.id) > (c.deployed_at, c.id)
             order by n.deployed_at, n.id
             limit 1)
      from changes c
    union all
    select (select n.id from deployments n
             where left(n.commit_hash, 7) collate "C" = left(c.commit_hash, 7) collate "C"
               and n.commit_hash = c.commit_hash
               and n.application_id = c.application_id and n.environment_id = c.environment_id
               and n.voided_at is null
               and n.deployed_at >= c.deployed_at and (n.deployed_at, n.id) > (c.deployed_at, c.id)
             order by n.deployed_at, n.id
             limit 1)
      from changes c
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

-- Commit lists may arrive while their deployment is still queued. A list stored then and a
-- batch recording its deployment must not miss each other (each in a snapshot without the
-- other's rows): batches take this lock shared, per workspace, before any cell; a list for a
-- deployment not yet recorded takes it exclusively, then looks again.
create function lock_commit_arrivals(workspace bigint, exclusive boolean) returns void
language plpgsql as $$
begin
  if exclusive then
    perform pg_advisory_xact_lock(hashtextextended('shiplog commit arrivals', workspace));
  else
    perform pg_advisory_xact_lock_shared(hashtextextended('shiplog commit arrivals', workspace));
  end if;
end
$$;

-- Locks the deployment_cells rows of these deployments' streams in key order, the insert
-- trigger's order, so that no other writer changes those streams until commit.
create function lock_streams_of(ids uuid[]) returns void
language plpgsql as $$
begin
  perform 1 from deployment_cells c
   where (c.workspace_id, c.application_id, c.environment_id) in (
     select d.workspace_id, d.application_id, d.environment_id from deployments d where d.id = any(ids))
   order by c.workspace_id, c.application_id, c.environment_id
   for update;
end
$$;

create function deployments_lock_commit_arrivals() returns trigger
language plpgsql as $$
begin
  perform lock_commit_arrivals(w.workspace_id, false)
     from (select distinct i.workspace_id from inserted i order by 1) w;
  return null;
end
$$;

-- Statement triggers fire in name order: the arrivals lock, the read model (which locks the
-- cells), then the facts.
create trigger deployments_lock_commit_arrivals
  after insert on deployments
  referencing new table as inserted
  for each statement execute function deployments_lock_commit_arrivals();

create function deployments_inserted_dora_facts() returns trigger
language plpgsql as $$
begin
  perform refresh_dora_facts(array(select i.id from inserted i), '{}', '{}');
  return null;
end
$$;

create trigger deployments_refresh_dora_facts
  after insert on deployments
  referencing new table as inserted
  for each statement execute function deployments_inserted_dora_facts();

-- After deployments_voided (name order), which has locked the cell.
create function deployment_voided_dora_facts() returns trigger
language plpgsql as $$
begin
  perform refresh_dora_facts(array[new.id], '{}', '{}');
  return null;
end
$$;

create trigger deployments_voided_dora_facts
  after update of voided_at on deployments
  for each row when (old.voided_at is null and new.voided_at is not null)
  execute function deployment_voided_dora_facts();

-- A commit list stored or removed: the facts of its deployment and of the next deliveries of
-- its commits. For a deployment not recorded yet, the arrivals lock first (see above): then
-- either the batch recording it sees this list, or this sees the deployment.
create function deployment_commits_changed() returns trigger
language plpgsql as $$
declare
  owners uuid[];
  shas text[];
begin
  select array_agg(c.deployment_id), array_agg(c.sha) into owners, shas from changed c;
  if owners is null then return null; end if;
  perform lock_commit_arrivals(w.workspace_id, true)
     from (select distinct l.workspace_id
             from deployment_commit_lists l
            where l.deployment_id = any(owners)
              and not exists (select 1 from deployments d
                               where d.id = canonical_deployment(l.deployment_id))
            order by 1) w;
  perform lock_streams_of(array(select distinct canonical_deployment(o) from unnest(owners) o));
  perform refresh_dora_facts('{}', owners, shas);
  return null;
end
$$;

create trigger deployment_commits_inserted
  after insert on deployment_commits
  referencing new table as changed
  for each statement execute function deployment_commits_changed();

create trigger deployment_commits_deleted
  after delete on deployment_commits
  referencing old table as changed
  for each statement execute function deployment_commits_changed();

-- A repeated delivery whose commits arrived while it was queued: its list joins the
-- deployment's. (Its cells are locked after the batch's own: two batches doing this across
-- the same two streams could deadlock, and Postgres would roll one back to be retried; it
-- takes a repeated delivery with commits in each.)
create function deployment_aliases_inserted() returns trigger
language plpgsql as $$
declare
  owners uuid[];
  shas text[];
begin
  select array_agg(c.deployment_id), array_agg(c.sha) into owners, shas
    from inserted a join deployment_commits c on c.deployment_id = a.id;
  if owners is null then return null; end if;
  perform lock_streams_of(array(select distinct a.deployment_id from inserted a));
  perform refresh_dora_facts('{}', owners, shas);
  return null;
end
$$;

create trigger deployment_aliases_dora_facts
  after insert on deployment_aliases
  referencing new table as inserted
  for each statement execute function deployment_aliases_inserted();

insert into deployment_dora_facts select * from expected_deployment_dora_facts;
