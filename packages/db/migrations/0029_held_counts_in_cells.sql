-- A stream's counts for the day and the ISO week of its latest deployment move from
-- deployment_counts into its deployment_cells row (latest_day, latest_day_count, latest_week,
-- latest_week_count). Live deployments are their stream's newest, so they all fall in those two
-- buckets: each batch rewrote three rows per stream (the cell, the day's counts, the week's), and
-- now rewrites one. deployment_counts keeps every other bucket, written when a stream's latest
-- moves to a new day or week and for deployments that arrive late (03_read_model.sql).
--
-- With the counts rows no longer rewritten by every batch, their pages no longer need room for
-- new versions: back to full pages (0028 had left nine tenths free). Pages already written keep
-- their layout until rewritten (VACUUM FULL, or the rows' next moves).
alter table deployment_cells
  add column latest_day integer,
  add column latest_day_count integer not null default 0,
  add column latest_week integer,
  add column latest_week_count integer not null default 0;

update deployment_cells
   set latest_day = bucket_number(latest_deployed_at, 1::smallint),
       latest_week = bucket_number(latest_deployed_at, 7::smallint);

-- What deployment_counts held for those buckets moves into the cells.
create temporary table held on commit drop as
select c.workspace_id, c.application_id, c.environment_id, t.bucket_days,
       case t.bucket_days when 1 then c.latest_day else c.latest_week end as number,
       (select split_part(pair, ':', 2)::integer
          from unnest(string_to_array(t.counts, ',')) as pair
         where split_part(pair, ':', 1)::integer
               = (case t.bucket_days when 1 then c.latest_day else c.latest_week end) & 31) as count
  from deployment_cells c
  join deployment_counts t
    on t.workspace_id = c.workspace_id and t.environment_id = c.environment_id
   and t.application_id = c.application_id
   and t.block = (case t.bucket_days when 1 then c.latest_day else c.latest_week end) >> 5;
delete from held where count is null;

update deployment_cells c
   set latest_day_count = h.count
  from held h
 where h.bucket_days = 1
   and (h.workspace_id, h.application_id, h.environment_id)
       = (c.workspace_id, c.application_id, c.environment_id);
update deployment_cells c
   set latest_week_count = h.count
  from held h
 where h.bucket_days = 7
   and (h.workspace_id, h.application_id, h.environment_id)
       = (c.workspace_id, c.application_id, c.environment_id);

-- A block whose only bucket moved goes (add_block_counts gives null); the others lose it.
with emptied as (
  delete from deployment_counts t
   using held h
   where t.workspace_id = h.workspace_id and t.environment_id = h.environment_id
     and t.application_id = h.application_id and t.bucket_days = h.bucket_days
     and t.block = h.number >> 5
     and add_block_counts(t.counts, (h.number & 31) || ':-' || h.count) is null
  returning 1
)
update deployment_counts t
   set counts = add_block_counts(t.counts, (h.number & 31) || ':-' || h.count)
  from held h
 where t.workspace_id = h.workspace_id and t.environment_id = h.environment_id
   and t.application_id = h.application_id and t.bucket_days = h.bucket_days
   and t.block = h.number >> 5
   and add_block_counts(t.counts, (h.number & 31) || ':-' || h.count) is not null;

alter table deployment_cells
  alter column latest_day set not null,
  alter column latest_week set not null;

-- The frequency read takes an environment's held counts from its cells, beside its blocks.
create index deployment_cells_by_environment on deployment_cells (workspace_id, environment_id);

alter table deployment_counts reset (fillfactor);
