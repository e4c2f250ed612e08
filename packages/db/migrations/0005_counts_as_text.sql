-- deployment_counts keeps a block's counts as text naming the buckets that have any,
-- 'slot:count' in slot order ('3:1,17:2'), instead of an integer[] of all 32. A frequency read
-- hands hundreds of thousands of counts to the API: as integer[] Postgres formats every one
-- (array_out was three quarters of a 400-day window's server time at 5M deployments) and the
-- client parses every one back, though three in four are zero. As text the server copies bytes
-- and the client reads only the counts that are not zero. The writer merges the few pairs of
-- each row a batch touches instead of adding two arrays of 32, and the table shrinks by two thirds.

-- Writers wait (they take this lock first too), so no batch meets half a migration.
lock table deployments in share row exclusive mode;

drop view expected_deployment_counts;
drop function block_counts(integer[], integer[]);
drop function add_block_counts(integer[], integer[]);

-- A block's counts as stored, from (slot, count) pairs: zero counts left out, slots ascending.
-- The trigger of migration 0004 calls this and the next by name, so it writes text now.
create function block_counts(slots integer[], counts integer[]) returns text
language sql immutable strict parallel safe as $$
  select string_agg(slot || ':' || count, ',' order by slot)
    from unnest(slots, counts) as given(slot, count)
   where count <> 0
$$;

-- Two blocks' counts added up, slot by slot.
create function add_block_counts(a text, b text) returns text
language sql immutable strict parallel safe as $$
  select block_counts(array_agg(slot), array_agg(count))
    from (select split_part(pair, ':', 1)::integer as slot, sum(split_part(pair, ':', 2)::integer)::integer as count
            from unnest(string_to_array(a || ',' || b, ',')) as pair
           group by 1) merged
$$;

alter table deployment_counts
  drop constraint deployment_counts_counts_check,
  alter column counts type text
    using block_counts('{0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31}', counts),
  -- Slot order and canonical digits are left to `bun run db:verify`, which compares the text.
  add constraint deployment_counts_counts_check
    check (counts ~ '^([0-9]|[12][0-9]|3[01]):[1-9][0-9]*(,([0-9]|[12][0-9]|3[01]):[1-9][0-9]*)*$');

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
