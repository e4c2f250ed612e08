-- The read model: what /v1/state, the catalog and deployment frequency answer from, kept exact in
-- the transaction that writes deployments by the steps below, which the triggers of
-- 09_triggers.sql call. Triggers rather than worker code, so that every writer keeps it: a worker
-- of the previous build during a rolling upgrade, a SQL import, a benchmark seed.
-- `bun run db:verify` (read-model.ts) compares the tables with the expected_* views, which
-- compute them from the deployments themselves; its `--repair` and the seeds refill from them.
--
-- deployment_cells: the latest deployment (by deployedAt, then id) and the number of deployments
-- of every (application, environment) that has one, and its deployments in the UTC day and the ISO
-- week of its latest (latest_day, latest_week: bucket numbers, 01_time.sql). Live deployments are
-- their stream's newest, so they fall in those two buckets: a batch rewrites one row per stream.
-- deployment_counts: the deployments of every other day (bucket_days 1) and week (7) of every
-- (environment, application), in blocks of 32 buckets, a block's counts as text naming the
-- buckets that have any, 'slot:count' in slot order ('3:1,17:2'): a frequency read hands hundreds
-- of thousands of counts to the API, and three in four are zero. A bucket is in one place or the
-- other, never both; readers add the two (dora/deployment-counts.ts).

-- A block's counts as stored, from (slot, count) pairs: zero counts left out, slots ascending.
create or replace function block_counts(slots integer[], counts integer[]) returns text
language sql immutable strict parallel safe as $$
  select string_agg(slot || ':' || count, ',' order by slot)
    from unnest(slots, counts) as given(slot, count)
   where count <> 0
$$;

-- Two blocks' counts added up, slot by slot, in a loop over at most 64 pairs into a 32-slot array:
-- a tenth of the set-based form's cost (unnest, group, string_agg: ~100 µs a call).
create or replace function merge_block_counts(a text, b text) returns text
language plpgsql immutable strict parallel safe as $$
declare
  counts integer[] := array_fill(0, array[32], array[0]);
  pair text;
  slot integer;
  merged text[] := '{}';
begin
  foreach pair in array string_to_array(a || ',' || b, ',') loop
    slot := split_part(pair, ':', 1)::integer;
    counts[slot] := counts[slot] + split_part(pair, ':', 2)::integer;
  end loop;
  for slot in 0..31 loop
    if counts[slot] <> 0 then
      merged := merged || (slot || ':' || counts[slot]);
    end if;
  end loop;
  return nullif(array_to_string(merged, ','), '');
end
$$;

-- Two blocks' counts added up. Every batch adds a short block (today's slot, this week's) to each
-- counts row it touches, whose block may hold 32 slots: when each added slot is there already
-- and stays non-zero, its count is rewritten in place; otherwise the blocks are merged whole.
--
-- Live deployments add one slot, the block's newest: that case reads and rewrites only the last
-- pair. Text positions count characters, so each strpos, substr or overlay walks the block from
-- its start: on a full block (a year of history) the general path took 7 µs a call, 2 µs empty.
create or replace function add_block_counts(a text, b text) returns text
language plpgsql immutable strict parallel safe as $$
declare
  padded text;
  pair text;
  key text;
  at integer;
  width integer;
  total integer;
  last_pair text;
begin
  if strpos(b, ',') = 0 then
    key := split_part(b, ':', 1);
    last_pair := split_part(a, ',', -1);
    if split_part(last_pair, ':', 1) = key then
      total := split_part(last_pair, ':', 2)::integer + split_part(b, ':', 2)::integer;
      if total <> 0 then
        return left(a, -length(last_pair)) || key || ':' || total;
      end if;
    elsif key::integer > split_part(last_pair, ':', 1)::integer
          and split_part(b, ':', 2)::integer > 0 then
      return a || ',' || b;
    end if;
  end if;
  padded := ',' || a || ',';
  foreach pair in array string_to_array(b, ',') loop
    key := ',' || split_part(pair, ':', 1) || ':';
    at := strpos(padded, key);
    if at = 0 then
      return merge_block_counts(a, b);
    end if;
    at := at + length(key);
    width := strpos(substr(padded, at), ',') - 1;
    total := substr(padded, at, width)::integer + split_part(pair, ':', 2)::integer;
    if total = 0 then
      return merge_block_counts(a, b);
    end if;
    padded := overlay(padded placing total::text from at for width);
  end loop;
  return substr(padded, 2, length(padded) - 2);
end
$$;

-- What the two tables must hold: the deployments that are not voided.
create or replace view expected_deployment_cells as
select distinct on (d.application_id, d.environment_id)
       d.workspace_id, d.application_id, d.environment_id,
       count(*) over (partition by d.application_id, d.environment_id) as deployment_count,
       d.id as latest_id, d.deployed_at as latest_deployed_at,
       d.version as latest_version, d.commit_hash as latest_commit_hash,
       bucket_number(d.deployed_at, 1::smallint) as latest_day,
       (count(*) over (partition by d.application_id, d.environment_id,
                                    bucket_number(d.deployed_at, 1::smallint)))::integer as latest_day_count,
       bucket_number(d.deployed_at, 7::smallint) as latest_week,
       (count(*) over (partition by d.application_id, d.environment_id,
                                    bucket_number(d.deployed_at, 7::smallint)))::integer as latest_week_count
  from deployments d
 where d.voided_at is null
 order by d.application_id, d.environment_id, d.deployed_at desc, d.id desc;

create or replace view expected_deployment_counts as
with latest as (
  select d.application_id, d.environment_id, max(d.deployed_at) as deployed_at
    from deployments d
   where d.voided_at is null
   group by 1, 2),
per_slot as (
  select d.workspace_id, d.environment_id, d.application_id, unit.bucket_days,
         bucket_number(d.deployed_at, unit.bucket_days) >> 5 as block,
         bucket_number(d.deployed_at, unit.bucket_days) & 31 as slot,
         count(*)::integer as count
    from deployments d
   cross join (values (1::smallint), (7::smallint)) as unit(bucket_days)
    join latest l on l.application_id = d.application_id and l.environment_id = d.environment_id
   where d.voided_at is null
     -- The latest's day and week are held by the cell.
     and bucket_number(d.deployed_at, unit.bucket_days) <> bucket_number(l.deployed_at, unit.bucket_days)
   group by 1, 2, 3, 4, 5, 6)
select workspace_id, environment_id, application_id, bucket_days, block,
       block_counts(array_agg(slot), array_agg(count)) as counts
  from per_slot
 group by 1, 2, 3, 4, 5;

-- Adds `count` deployments to bucket `number` of `width` days in deployment_counts.
create or replace function add_to_counts(workspace bigint, environment bigint, application bigint,
                                         width smallint, number integer, count integer)
returns void
language sql as $$
  insert into deployment_counts as total
  values (workspace, environment, application, width, number >> 5, (number & 31) || ':' || count)
  on conflict (workspace_id, environment_id, bucket_days, block, application_id) do update set
    counts = add_block_counts(total.counts, excluded.counts)
$$;

-- Takes `count` deployments off bucket `number` of `width` days in deployment_counts, and the
-- block with them when nothing is left in it (add_block_counts gives null).
create or replace function subtract_from_counts(workspace bigint, environment bigint,
                                                application bigint, width smallint, number integer,
                                                count integer)
returns void
language plpgsql as $$
begin
  delete from deployment_counts
   where workspace_id = workspace and environment_id = environment and application_id = application
     and bucket_days = width and block = number >> 5
     and add_block_counts(counts, (number & 31) || ':-' || count) is null;
  update deployment_counts set counts = add_block_counts(counts, (number & 31) || ':-' || count)
   where workspace_id = workspace and environment_id = environment and application_id = application
     and bucket_days = width and block = number >> 5;
end
$$;

-- Takes bucket `number` of `width` days out of deployment_counts; returns the count it held.
create or replace function take_from_counts(workspace bigint, environment bigint,
                                            application bigint, width smallint, number integer)
returns integer
language plpgsql as $$
declare
  held integer;
begin
  select split_part(pair, ':', 2)::integer into held
    from deployment_counts t, unnest(string_to_array(t.counts, ',')) as pair
   where t.workspace_id = workspace and t.environment_id = environment
     and t.application_id = application and t.bucket_days = width and t.block = number >> 5
     and split_part(pair, ':', 1)::integer = number & 31;
  if held is null then return 0; end if;
  perform subtract_from_counts(workspace, environment, application, width, number, held);
  return held;
end
$$;

-- One bucket width of a cell's move: the `left_count` it held of bucket `left_number` joins
-- deployment_counts, and what deployment_counts held of bucket `entered` leaves it, returned.
create or replace function exchange_held_bucket(cell deployment_cells, width smallint,
                                                left_number integer, left_count integer,
                                                entered integer)
returns integer
language plpgsql as $$
begin
  if left_count <> 0 then
    perform add_to_counts(cell.workspace_id, cell.environment_id, cell.application_id, width,
                          left_number, left_count);
  end if;
  return take_from_counts(cell.workspace_id, cell.environment_id, cell.application_id, width,
                          entered);
end
$$;

-- A cell whose latest moved to another day or week (the trigger on deployment_cells calls this
-- before the update is written): the count it held for the bucket it left joins
-- deployment_counts, and what deployment_counts held for the bucket it enters (a void moving the
-- latest back to an earlier day) joins the cell. Returns the cell as it must be written.
create or replace function read_model_move_held(old deployment_cells, new deployment_cells)
returns deployment_cells
language plpgsql as $$
begin
  if new.latest_day <> old.latest_day then
    new.latest_day_count := new.latest_day_count
      + exchange_held_bucket(old, 1::smallint, old.latest_day, old.latest_day_count, new.latest_day);
  end if;
  if new.latest_week <> old.latest_week then
    new.latest_week_count := new.latest_week_count
      + exchange_held_bucket(old, 7::smallint, old.latest_week, old.latest_week_count,
                             new.latest_week);
  end if;
  return new;
end
$$;

-- Adds the deployments one statement inserted (the trigger's transition table, as an array). Rows
-- are upserted in key order, so concurrent batches lock them in the same order and never
-- deadlock. A backfill replaces a cell's latest only when it is later; it counts in the cell when
-- it falls in the latest's day or week, and in deployment_counts otherwise.
create or replace function read_model_add(batch deployments[]) returns void
language plpgsql as $$
declare
  written deployment_cells[];
begin
  with batch_cells as (
    select distinct on (i.workspace_id, i.application_id, i.environment_id)
           i.workspace_id, i.application_id, i.environment_id,
           count(*) over stream as deployment_count,
           i.id, i.deployed_at, i.version, i.commit_hash,
           bucket_number(i.deployed_at, 1::smallint) as day,
           (count(*) over (partition by i.application_id, i.environment_id,
                                        bucket_number(i.deployed_at, 1::smallint)))::integer as day_count,
           bucket_number(i.deployed_at, 7::smallint) as week,
           (count(*) over (partition by i.application_id, i.environment_id,
                                        bucket_number(i.deployed_at, 7::smallint)))::integer as week_count
      from unnest(batch) i
    window stream as (partition by i.application_id, i.environment_id)
     order by i.workspace_id, i.application_id, i.environment_id, i.deployed_at desc, i.id desc),
  upserted as (
    insert into deployment_cells as cell
    select * from batch_cells
    on conflict (workspace_id, application_id, environment_id) do update set
      deployment_count = cell.deployment_count + excluded.deployment_count,
      latest_id = case when (excluded.latest_deployed_at, excluded.latest_id) > (cell.latest_deployed_at, cell.latest_id)
                       then excluded.latest_id else cell.latest_id end,
      latest_version = case when (excluded.latest_deployed_at, excluded.latest_id) > (cell.latest_deployed_at, cell.latest_id)
                            then excluded.latest_version else cell.latest_version end,
      latest_commit_hash = case when (excluded.latest_deployed_at, excluded.latest_id) > (cell.latest_deployed_at, cell.latest_id)
                                then excluded.latest_commit_hash else cell.latest_commit_hash end,
      latest_deployed_at = greatest(cell.latest_deployed_at, excluded.latest_deployed_at),
      -- The batch's counts of its own latest's bucket, and the cell's of its, each where that
      -- bucket is the later latest's; a bucket left is moved out by read_model_move_held.
      latest_day = greatest(cell.latest_day, excluded.latest_day),
      latest_day_count =
        case when excluded.latest_day >= cell.latest_day then excluded.latest_day_count else 0 end
        + case when cell.latest_day >= excluded.latest_day then cell.latest_day_count else 0 end,
      latest_week = greatest(cell.latest_week, excluded.latest_week),
      latest_week_count =
        case when excluded.latest_week >= cell.latest_week then excluded.latest_week_count else 0 end
        + case when cell.latest_week >= excluded.latest_week then cell.latest_week_count else 0 end
    returning cell.*)
  select array_agg(row(u.*)::deployment_cells) into written from upserted u;

  -- What falls outside its cell's day or week: deployments that arrived late.
  insert into deployment_counts as total
  select workspace_id, environment_id, application_id, bucket_days, block,
         string_agg(slot || ':' || count, ',' order by slot)
    from (select i.workspace_id, i.environment_id, i.application_id, unit.bucket_days,
                 bucket_number(i.deployed_at, unit.bucket_days) >> 5 as block,
                 bucket_number(i.deployed_at, unit.bucket_days) & 31 as slot,
                 count(*)::integer as count
            from unnest(batch) i
            join unnest(written) c
              on c.workspace_id = i.workspace_id and c.application_id = i.application_id
             and c.environment_id = i.environment_id
           cross join (values (1::smallint), (7::smallint)) as unit(bucket_days)
           where bucket_number(i.deployed_at, unit.bucket_days)
                 <> case unit.bucket_days when 1 then c.latest_day else c.latest_week end
           group by 1, 2, 3, 4, 5, 6) per_slot
   group by 1, 2, 3, 4, 5
   order by 1, 2, 3, 4, 5
  on conflict (workspace_id, environment_id, bucket_days, block, application_id) do update set
    counts = add_block_counts(total.counts, excluded.counts);
end
$$;

-- Takes a voided deployment out, in the voiding transaction. Rows are touched in
-- read_model_add's order (the cell, then its counts by bucket width), so a void and a batch of
-- the same cell never deadlock.
create or replace function read_model_remove(voided deployments) returns void
language plpgsql as $$
declare
  width smallint;
  number integer;
  cell deployment_cells;
  successor record;
begin
  -- One fewer in the cell, and in its day's and week's counts where the voided one falls.
  update deployment_cells c
     set deployment_count = c.deployment_count - 1,
         latest_day_count = c.latest_day_count
           - (c.latest_day = bucket_number(voided.deployed_at, 1::smallint))::integer,
         latest_week_count = c.latest_week_count
           - (c.latest_week = bucket_number(voided.deployed_at, 7::smallint))::integer
   where c.workspace_id = voided.workspace_id and c.application_id = voided.application_id
     and c.environment_id = voided.environment_id
  returning c.* into cell;

  -- Elsewhere, one fewer in deployment_counts.
  foreach width in array array[1, 7]::smallint[] loop
    number := bucket_number(voided.deployed_at, width);
    continue when number = case width when 1 then cell.latest_day else cell.latest_week end;
    perform subtract_from_counts(voided.workspace_id, voided.environment_id,
                                 voided.application_id, width, number, 1);
  end loop;

  if cell.deployment_count = 0 then
    delete from deployment_cells
     where workspace_id = voided.workspace_id and application_id = voided.application_id
       and environment_id = voided.environment_id;
    return;
  end if;
  if cell.latest_id <> voided.id then return; end if;

  -- The cell takes the latest of the rest: a backward walk of deployments_unique_delivery
  -- (application, environment, deployedAt). When its day or week is another, the cell holds
  -- that one's counts instead (read_model_move_held, from the trigger).
  select d.id, d.deployed_at, d.version, d.commit_hash,
         bucket_number(d.deployed_at, 1::smallint) as day,
         bucket_number(d.deployed_at, 7::smallint) as week
    into successor
    from deployments d
   where d.application_id = voided.application_id and d.environment_id = voided.environment_id
     and d.voided_at is null
   order by d.deployed_at desc, d.id desc
   limit 1;
  update deployment_cells c
     set latest_id = successor.id, latest_deployed_at = successor.deployed_at,
         latest_version = successor.version, latest_commit_hash = successor.commit_hash,
         latest_day = successor.day,
         latest_day_count = case when c.latest_day = successor.day then c.latest_day_count else 0 end,
         latest_week = successor.week,
         latest_week_count = case when c.latest_week = successor.week then c.latest_week_count else 0 end
   where c.workspace_id = voided.workspace_id and c.application_id = voided.application_id
     and c.environment_id = voided.environment_id;
end
$$;
