-- A deployment recorded by mistake is voided, not deleted: kept for audit (when, by which key,
-- why), shown as voided by its receipt, and left out of every list, the state matrix, every
-- count and every metric. Voiding is for good: nothing un-voids.
alter table deployments
  add column voided_at timestamptz,
  add column voided_by_key uuid,
  add column void_reason text check (char_length(void_reason) <= 500);

-- Writers wait, so the views and the trigger change together.
lock table deployments in share row exclusive mode;

-- The read model holds what the deployments that are not voided call for.
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

-- Takes a voided deployment out of the read model, in the voiding transaction. Rows are touched
-- in the insert trigger's order (the cell, then its counts by bucket width), so a void and a
-- batch of the same cell never deadlock.
create function deployment_voided() returns trigger
language plpgsql as $$
declare
  width smallint;
  number integer;
begin
  update deployment_cells set deployment_count = deployment_count - 1
   where workspace_id = new.workspace_id and application_id = new.application_id
     and environment_id = new.environment_id;
  delete from deployment_cells
   where workspace_id = new.workspace_id and application_id = new.application_id
     and environment_id = new.environment_id and deployment_count = 0;
  -- A cell whose latest was voided takes the latest of the rest: a backward walk of
  -- deployments_unique_delivery (application, environment, deployedAt).
  update deployment_cells c
     set (latest_id, latest_deployed_at, latest_version, latest_commit_hash) = (
       select d.id, d.deployed_at, d.version, d.commit_hash from deployments d
        where d.application_id = c.application_id and d.environment_id = c.environment_id
          and d.voided_at is null
        order by d.deployed_at desc, d.id desc limit 1)
   where c.workspace_id = new.workspace_id and c.application_id = new.application_id
     and c.environment_id = new.environment_id and c.latest_id = new.id;

  foreach width in array array[1, 7]::smallint[] loop
    number := bucket_number(new.deployed_at, width);
    delete from deployment_counts
     where workspace_id = new.workspace_id and environment_id = new.environment_id
       and bucket_days = width and block = number >> 5 and application_id = new.application_id
       and add_block_counts(counts, (number & 31) || ':-1') is null;
    update deployment_counts set counts = add_block_counts(counts, (number & 31) || ':-1')
     where workspace_id = new.workspace_id and environment_id = new.environment_id
       and bucket_days = width and block = number >> 5 and application_id = new.application_id;
  end loop;
  return null;
end
$$;

create trigger deployments_voided
  after update of voided_at on deployments
  for each row when (old.voided_at is null and new.voided_at is not null)
  execute function deployment_voided();

-- What a commit's change type reads: the deployments before it that are not voided.
create or replace function change_type(application bigint, environment bigint, at timestamptz,
                                       deployment uuid, commit text) returns text
language sql stable parallel safe as $$
  select case
           when before.commit_hash is null then 'initial'
           when before.commit_hash = commit then 'redeploy'
           when exists (
             select 1 from deployments e
              where left(e.commit_hash, 7) collate "C" = left(commit, 7) collate "C"
                and e.commit_hash = commit
                and e.application_id = application and e.environment_id = environment
                and e.voided_at is null
                and e.deployed_at <= at and (e.deployed_at, e.id) < (at, deployment)) then 'rollback'
           else 'forward'
         end
    from (select) one
    left join lateral (
      select p.commit_hash from deployments p
       where p.application_id = application and p.environment_id = environment
         and p.voided_at is null
         and p.deployed_at <= at and (p.deployed_at, p.id) < (at, deployment)
       order by p.deployed_at desc, p.id desc
       limit 1) before on true
$$;
