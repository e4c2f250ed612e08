-- The read model: what /v1/state, the catalog and deployment frequency answer from, kept exact in
-- the transaction that writes deployments by the steps below, which the triggers of
-- 09_triggers.sql call. Triggers rather than worker code, so that every writer keeps it: a worker
-- of the previous build during a rolling upgrade, a SQL import, a benchmark seed.
-- `bun run db:verify` (read-model.ts) compares the tables with the expected_* views, which
-- compute them from the deployments themselves; its `--repair` and the seeds refill from them.
--
-- deployment_cells: the latest deployment (by deployedAt, then id) and the number of deployments
-- of every (application, environment) that has one. deployment_counts: deployments per UTC day
-- (bucket_days 1) and per ISO week (7) of every (environment, application), in blocks of 32
-- buckets (01_time.sql), a block's counts as text naming the buckets that have any,
-- 'slot:count' in slot order ('3:1,17:2'): a frequency read hands hundreds of thousands of
-- counts to the API, and three in four are zero.

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
       d.version as latest_version, d.commit_hash as latest_commit_hash
  from deployments d
 where d.voided_at is null
 order by d.application_id, d.environment_id, d.deployed_at desc, d.id desc;

create or replace view expected_deployment_counts as
with per_slot as (
  select d.workspace_id, d.environment_id, d.application_id, unit.bucket_days,
         bucket_number(d.deployed_at, unit.bucket_days) >> 5 as block,
         bucket_number(d.deployed_at, unit.bucket_days) & 31 as slot,
         count(*)::integer as count
    from deployments d
   cross join (values (1::smallint), (7::smallint)) as unit(bucket_days)
   where d.voided_at is null
   group by 1, 2, 3, 4, 5, 6)
select workspace_id, environment_id, application_id, bucket_days, block,
       block_counts(array_agg(slot), array_agg(count)) as counts
  from per_slot
 group by 1, 2, 3, 4, 5;

-- Adds the deployments one statement inserted (the trigger's transition table, as an array). Rows
-- are upserted in key order, so concurrent batches lock them in the same order and never
-- deadlock. A backfill counts in its own day and replaces a cell's latest only when it is later.
create or replace function read_model_add(batch deployments[]) returns void
language plpgsql as $$
begin
  insert into deployment_cells as cell
  select distinct on (i.workspace_id, i.application_id, i.environment_id)
         i.workspace_id, i.application_id, i.environment_id,
         count(*) over (partition by i.application_id, i.environment_id),
         i.id, i.deployed_at, i.version, i.commit_hash
    from unnest(batch) i
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
         string_agg(slot || ':' || count, ',' order by slot)
    from (select i.workspace_id, i.environment_id, i.application_id, unit.bucket_days,
                 bucket_number(i.deployed_at, unit.bucket_days) >> 5 as block,
                 bucket_number(i.deployed_at, unit.bucket_days) & 31 as slot,
                 count(*)::integer as count
            from unnest(batch) i
           cross join (values (1::smallint), (7::smallint)) as unit(bucket_days)
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
begin
  update deployment_cells set deployment_count = deployment_count - 1
   where workspace_id = voided.workspace_id and application_id = voided.application_id
     and environment_id = voided.environment_id;
  delete from deployment_cells
   where workspace_id = voided.workspace_id and application_id = voided.application_id
     and environment_id = voided.environment_id and deployment_count = 0;
  -- A cell whose latest was voided takes the latest of the rest: a backward walk of
  -- deployments_unique_delivery (application, environment, deployedAt).
  update deployment_cells c
     set (latest_id, latest_deployed_at, latest_version, latest_commit_hash) = (
       select d.id, d.deployed_at, d.version, d.commit_hash from deployments d
        where d.application_id = c.application_id and d.environment_id = c.environment_id
          and d.voided_at is null
        order by d.deployed_at desc, d.id desc limit 1)
   where c.workspace_id = voided.workspace_id and c.application_id = voided.application_id
     and c.environment_id = voided.environment_id and c.latest_id = voided.id;

  foreach width in array array[1, 7]::smallint[] loop
    number := bucket_number(voided.deployed_at, width);
    delete from deployment_counts
     where workspace_id = voided.workspace_id and environment_id = voided.environment_id
       and bucket_days = width and block = number >> 5 and application_id = voided.application_id
       and add_block_counts(counts, (number & 31) || ':-1') is null;
    update deployment_counts set counts = add_block_counts(counts, (number & 31) || ':-1')
     where workspace_id = voided.workspace_id and environment_id = voided.environment_id
       and bucket_days = width and block = number >> 5 and application_id = voided.application_id;
  end loop;
end
$$;
