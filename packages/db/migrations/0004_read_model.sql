-- The read model: what /v1/state, the catalog and deployment frequency answer from, kept exact by
-- a trigger on deployments in the transaction that writes them. A trigger rather than worker code
-- so that every writer keeps it: a worker of the previous build during a rolling upgrade, a SQL
-- import, a benchmark seed. `bun run db:verify` compares it with what the expected_* views below
-- compute from the deployments themselves.
--
-- Writers wait while this migration fills the model, so no deployment lands between the fill
-- and the trigger.
lock table deployments in share row exclusive mode;

-- Deduplication keyed by 64 bits of an md5 of version and commit instead of their text (the
-- commit is hexadecimal, so '/' separates the two unambiguously): 32 bytes of key instead of
-- about 100. Two different deliveries collide only if they share application, environment and
-- deployedAt to the microsecond and then 64 bits of hash. Ordered by cell then deployedAt, it is
-- also the index of every per-cell read: the latest deployment of a cell, a cell's history, the
-- `?app=` and `?repository=` listings (deployments.ts).
alter table deployments drop constraint deployments_unique_delivery;
create unique index deployments_unique_delivery
  on deployments (application_id, environment_id, deployed_at,
                  (('x' || left(md5(version || '/' || commit_hash), 16))::bit(64)::bigint));

-- `?commitHash=` matches a prefix of at least 4 digits: the first 7 (git's short hash) narrow
-- millions of commits to a handful, in a fifth of the full text's space; the workspace is
-- checked on the rows found. In C order, so the prefix is a plain range that generic plans use
-- too (deployments.ts).
drop index deployments_by_commit;
create index deployments_by_commit_prefix on deployments ((left(commit_hash, 7) collate "C"));

-- `?app=` walks the delivery index cell by cell, which deployments_by_application duplicated.
drop index deployments_by_application;

-- The time indexes ascend: deployments arrive in deployedAt order, and a descending index splits
-- its leftmost page in halves at every new row, leaving it half empty (a backward scan reads
-- them newest first all the same). Without the id: ties in deployedAt are rare and sorted after.
drop index deployments_newest;
create index deployments_newest on deployments (workspace_id, deployed_at);
drop index deployments_by_environment;
create index deployments_by_environment on deployments (environment_id, deployed_at);

-- Days are UTC days since 1970-01-01 and weeks ISO weeks since Monday 1969-12-29; both are
-- counted in blocks of 32 buckets (`n >> 5`, slot `n & 31`, which floor for years before 1970).
-- Not strict, so Postgres inlines them into the queries that call them millions of times.
create function day_number(at timestamptz) returns integer
language sql immutable parallel safe as $$
  select (at at time zone 'UTC')::date - date '1970-01-01'
$$;

create function bucket_number(at timestamptz, bucket_days smallint) returns integer
language sql immutable parallel safe as $$
  select case bucket_days when 1 then day_number(at)
              else floor((day_number(at) + 3) / 7.0)::integer end
$$;

-- The 32 counts of a block from its non-zero (slot, count) pairs.
create function block_counts(slots integer[], counts integer[]) returns integer[]
language sql immutable strict parallel safe as $$
  select array_agg(coalesce(given.count, 0) order by slot)
    from generate_series(0, 31) slot
    left join unnest(slots, counts) as given(slot, count) using (slot)
$$;

create function add_block_counts(a integer[], b integer[]) returns integer[]
language sql immutable strict parallel safe as $$
  select array_agg(x + y order by i) from unnest(a, b) with ordinality as pair(x, y, i)
$$;

-- The latest deployment (by deployedAt, then id) and the number of deployments of every
-- (application, environment) that has one: /v1/state reads it as is; /v1/applications and
-- /v1/environments sum and pick from it (catalog.ts, deployment-matrix.ts).
create table deployment_cells (
  workspace_id bigint not null references workspaces (id) on delete cascade,
  application_id bigint not null references applications (id) on delete cascade,
  environment_id bigint not null references environments (id) on delete cascade,
  deployment_count bigint not null,
  latest_id uuid not null,
  latest_deployed_at timestamptz not null,
  latest_version text not null,
  latest_commit_hash text not null,
  primary key (workspace_id, application_id, environment_id)
) with (fillfactor = 50); -- rewritten at every batch: room on the page keeps updates HOT

-- Deployments per UTC day (bucket_days 1) and per ISO week (7) of every (environment,
-- application), 32 buckets a row: a 400-day frequency window reads 13 rows an application
-- (frequency.ts). Weeks are kept too, as 260 weeks of days would be 57 rows an application.
create table deployment_counts (
  workspace_id bigint not null references workspaces (id) on delete cascade,
  environment_id bigint not null references environments (id) on delete cascade,
  application_id bigint not null references applications (id) on delete cascade,
  bucket_days smallint not null check (bucket_days in (1, 7)),
  block integer not null,
  counts integer[] not null check (cardinality(counts) = 32),
  primary key (workspace_id, environment_id, bucket_days, block, application_id)
) with (fillfactor = 90); -- the current blocks are rewritten at every batch

-- What the two tables must hold, computed from the deployments: the fill below, the rebuild
-- and `bun run db:verify` (read-model.ts) all use these definitions.
create view expected_deployment_cells as
select distinct on (d.application_id, d.environment_id)
       d.workspace_id, d.application_id, d.environment_id,
       count(*) over (partition by d.application_id, d.environment_id) as deployment_count,
       d.id as latest_id, d.deployed_at as latest_deployed_at,
       d.version as latest_version, d.commit_hash as latest_commit_hash
  from deployments d
 order by d.application_id, d.environment_id, d.deployed_at desc, d.id desc;

create view expected_deployment_counts as
with per_slot as (
  select d.workspace_id, d.environment_id, d.application_id, unit.bucket_days,
         bucket_number(d.deployed_at, unit.bucket_days) >> 5 as block,
         bucket_number(d.deployed_at, unit.bucket_days) & 31 as slot,
         count(*)::integer as count
    from deployments d
   cross join (values (1::smallint), (7::smallint)) as unit(bucket_days)
   group by 1, 2, 3, 4, 5, 6)
select workspace_id, environment_id, application_id, bucket_days, block,
       block_counts(array_agg(slot), array_agg(count)) as counts
  from per_slot
 group by 1, 2, 3, 4, 5;

-- Keeps both tables exact for every statement that inserts deployments, in its transaction.
-- Rows are upserted in key order, so concurrent batches lock them in the same order and never
-- deadlock.
create function deployments_inserted() returns trigger
language plpgsql as $$
begin
  insert into deployment_cells as cell
  select distinct on (i.workspace_id, i.application_id, i.environment_id)
         i.workspace_id, i.application_id, i.environment_id,
         count(*) over (partition by i.application_id, i.environment_id),
         i.id, i.deployed_at, i.version, i.commit_hash
    from inserted i
   order by i.workspace_id, i.application_id, i.environment_id, i.deployed_at desc, i.id desc
  on conflict (workspace_id, application_id, environment_id) do update set
    deployment_count = cell.deployment_count + excluded.deployment_count,
    latest_id = case when (excluded.latest_deployed_at, excluded.latest_id) > (cell.latest_deployed_at, cell.latest_id)
                     then excluded.latest_id else cell.latest_id end,
    latest_version = case when (excluded.latest_deployed_at, excluded.latest_id) > (cell.latest_deployed_at, cell.latest_id)
                          then excluded.latest_version else cell.latest_version end,
    latest_commit_hash = case when (excluded.latest_deployed_at, excluded.latest_id) > (cell.latest_deployed_at, cell.latest_id)
                              then excluded.latest_commit_hash else cell.latest_commit_hash end,
    latest_deployed_at = greatest(cell.latest_deployed_at, excluded.latest_deployed_at);

  insert into deployment_counts as total
  select workspace_id, environment_id, application_id, bucket_days, block,
         block_counts(array_agg(slot), array_agg(count))
    from (select i.workspace_id, i.environment_id, i.application_id, unit.bucket_days,
                 bucket_number(i.deployed_at, unit.bucket_days) >> 5 as block,
                 bucket_number(i.deployed_at, unit.bucket_days) & 31 as slot,
                 count(*)::integer as count
            from inserted i
           cross join (values (1::smallint), (7::smallint)) as unit(bucket_days)
           group by 1, 2, 3, 4, 5, 6) per_slot
   group by 1, 2, 3, 4, 5
   order by 1, 2, 3, 4, 5
  on conflict (workspace_id, environment_id, bucket_days, block, application_id) do update set
    counts = add_block_counts(total.counts, excluded.counts);
  return null;
end
$$;

create trigger deployments_read_model
  after insert on deployments
  referencing new table as inserted
  for each statement execute function deployments_inserted();

insert into deployment_cells select * from expected_deployment_cells;
insert into deployment_counts select * from expected_deployment_counts;
