-- The locks writers take so that concurrent transactions recording deployments, voids, repeated
-- deliveries and commit lists neither miss each other's rows nor deadlock. Each trigger takes
-- them in this order: the commit-arrivals lock of each workspace (by workspace id), then
-- deployment_cells rows (in key order: lock_cells_of locks them so, for a batch and through
-- lock_streams_of for other writers, and read_model_add upserts them so).

-- Commit lists may arrive while their deployment is still queued. A list stored then and a
-- batch recording its deployment must not miss each other (each in a snapshot without the
-- other's rows): batches take this lock shared, per workspace, before any cell; a list for a
-- deployment not yet recorded takes it exclusively, then looks again.
create or replace function lock_commit_arrivals(workspace bigint, exclusive boolean) returns void
language plpgsql as $$
begin
  if exclusive then
    perform pg_advisory_xact_lock(hashtextextended('shiplog commit arrivals', workspace));
  else
    perform pg_advisory_xact_lock_shared(hashtextextended('shiplog commit arrivals', workspace));
  end if;
end
$$;

-- Locks the deployment_cells rows of these deployments' streams in key order, as read_model_add
-- would, so that no other writer changes those streams until commit, and returns them as they
-- are. For a batch being recorded, that is each stream's latest before it: a deployment of the
-- batch after it has no stored deployment after it, and its previous is known without a probe
-- (refresh_dora_facts). A stream with no row yet is not locked here (nothing to lock: a batch
-- creating it concurrently waits on its key in read_model_add), and is not in the result.
create or replace function lock_cells_of(batch deployments[]) returns deployment_cells[]
language sql as $$
  select coalesce(array_agg(locked.cell), '{}') from (
    select c as cell from deployment_cells c
     where (c.workspace_id, c.application_id, c.environment_id) in (
       select b.workspace_id, b.application_id, b.environment_id from unnest(batch) b)
     order by c.workspace_id, c.application_id, c.environment_id
     for update) locked
$$;

-- The same for deployments stored, by id (a void, a commit list, a repeated delivery).
create or replace function lock_streams_of(ids uuid[]) returns void
language sql as $$
  select lock_cells_of(array(select d from deployments d where d.id = any(ids)));
$$;
