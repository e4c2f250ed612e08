-- One trigger per table and event, whose function calls the steps that event needs in the order
-- they must run, written out below. (Postgres fires several triggers of one event in the
-- alphabetical order of their names: an order nobody reads, so there is one each.) Statement
-- triggers with transition tables where the worker inserts in batches (a batch is one insert of
-- up to 500 deployments), a row trigger for a void (one row per request).
--
-- The order: the commit-arrivals lock, then the deployment_cells rows of the streams touched
-- (08_write_locks.sql: the same order for every writer, so none deadlock), then the DORA facts,
-- which read those streams. A batch locks its cells before the read model writes them, and reads
-- them as they were (lock_cells_of), for the DORA facts.
--
-- Dropping and creating a trigger locks its table (access exclusive) until the migrate step
-- commits: the step re-applies these files only when they changed (docs/database.md).

-- Deployments recorded (a batch).
create or replace function deployments_after_insert() returns trigger
language plpgsql as $$
declare
  batch deployments[] := array(select i::deployments from inserted i);
  streams_before deployment_cells[];
begin
  -- 1. The commit-arrivals lock of each workspace, shared: a commit list stored meanwhile for
  --    a deployment of this batch waits, then sees it.
  perform lock_commit_arrivals(w.workspace_id, false)
     from (select distinct i.workspace_id from inserted i order by 1) w;
  -- 2. The cells of the batch's streams, locked in key order, as they were before it.
  streams_before := lock_cells_of(batch);
  -- 3. The read model: cells and counts.
  perform read_model_add(batch);
  -- 4. The DORA facts of the batch and of the deployments after it in its streams.
  perform refresh_dora_facts(array(select i.id from inserted i), '{}', '{}', streams_before);
  return null;
end
$$;

drop trigger if exists deployments_after_insert on deployments;
create trigger deployments_after_insert
  after insert on deployments
  referencing new table as inserted
  for each statement execute function deployments_after_insert();

-- A deployment voided (for good: nothing un-voids).
create or replace function deployments_after_void() returns trigger
language plpgsql as $$
begin
  -- 1. The read model, which locks the deployment's cell.
  perform read_model_remove(new);
  -- 2. The DORA facts of the deployments after it, which no longer follow it.
  perform refresh_dora_facts(array[new.id], '{}', '{}', '{}');
  return null;
end
$$;

drop trigger if exists deployments_after_void on deployments;
create trigger deployments_after_void
  after update of voided_at on deployments
  for each row when (old.voided_at is null and new.voided_at is not null)
  execute function deployments_after_void();

-- A cell whose latest moved to another day or week: the counts of the bucket it left and of the
-- one it entered change places (03_read_model.sql). Only then: the condition costs a live batch
-- nothing more.
create or replace function deployment_cells_before_turn() returns trigger
language plpgsql as $$
begin
  return read_model_move_held(old, new);
end
$$;

drop trigger if exists deployment_cells_before_turn on deployment_cells;
create trigger deployment_cells_before_turn
  before update of latest_day, latest_week on deployment_cells
  for each row when (old.latest_day <> new.latest_day or old.latest_week <> new.latest_week)
  execute function deployment_cells_before_turn();

-- A commit list stored or removed (the rows `changed`): the facts of its deployment and of the
-- next deliveries of its commits.
create or replace function deployment_commits_after_change() returns trigger
language plpgsql as $$
declare
  owners uuid[];
  shas text[];
begin
  select array_agg(c.deployment_id), array_agg(c.sha) into owners, shas from changed c;
  if owners is null then return null; end if;
  -- 1. For a deployment not recorded yet, the commit-arrivals lock, exclusive: then either the
  --    batch recording it sees this list, or this sees the deployment.
  perform lock_commit_arrivals(w.workspace_id, true)
     from (select distinct l.workspace_id
             from deployment_commit_lists l
            where l.deployment_id = any(owners)
              and not exists (select 1 from deployments d
                               where d.id = canonical_deployment(l.deployment_id))
            order by 1) w;
  -- 2. The cells of the deployments' streams.
  perform lock_streams_of(array(select distinct canonical_deployment(o) from unnest(owners) o));
  -- 3. The DORA facts.
  perform refresh_dora_facts('{}', owners, shas, '{}');
  return null;
end
$$;

drop trigger if exists deployment_commits_after_insert on deployment_commits;
create trigger deployment_commits_after_insert
  after insert on deployment_commits
  referencing new table as changed
  for each statement execute function deployment_commits_after_change();

drop trigger if exists deployment_commits_after_delete on deployment_commits;
create trigger deployment_commits_after_delete
  after delete on deployment_commits
  referencing old table as changed
  for each statement execute function deployment_commits_after_change();

-- Repeated deliveries recorded (a batch): the commits that arrived for one while it was queued
-- join its deployment's. (Their cells are locked after the batch's own: two batches doing this
-- across the same two streams could deadlock, and Postgres would roll one back to be retried; it
-- takes a repeated delivery with commits in each.)
create or replace function deployment_aliases_after_insert() returns trigger
language plpgsql as $$
declare
  owners uuid[];
  shas text[];
begin
  -- 1. The commit-arrivals lock of each workspace, shared, as for deployments recorded: the batch
  --    may record nothing else there, and a list stored meanwhile for a repeated delivery must
  --    wait, then find its deployment; one stored before is read below, after the lock.
  perform lock_commit_arrivals(w.workspace_id, false)
     from (select distinct d.workspace_id
             from inserted a join deployments d on d.id = a.deployment_id
            order by 1) w;
  select array_agg(c.deployment_id), array_agg(c.sha) into owners, shas
    from inserted a join deployment_commits c on c.deployment_id = a.id;
  if owners is null then return null; end if;
  -- 2. The cells of the deployments repeated.
  perform lock_streams_of(array(select distinct a.deployment_id from inserted a));
  -- 3. The DORA facts.
  perform refresh_dora_facts('{}', owners, shas, '{}');
  return null;
end
$$;

drop trigger if exists deployment_aliases_after_insert on deployment_aliases;
create trigger deployment_aliases_after_insert
  after insert on deployment_aliases
  referencing new table as inserted
  for each statement execute function deployment_aliases_after_insert();

-- Integrations deleted (one, or a workspace's): their deliveries go too. A trigger rather than a
-- foreign key, whose check every delivery stored paid (migration 0034).
create or replace function integrations_after_delete() returns trigger
language plpgsql as $$
begin
  delete from integration_deliveries d using deleted g where d.integration_id = g.id;
  return null;
end
$$;

drop trigger if exists integrations_after_delete on integrations;
create trigger integrations_after_delete
  after delete on integrations
  referencing old table as deleted
  for each statement execute function integrations_after_delete();
