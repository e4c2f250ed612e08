-- Taking a batch out of the inbox (deployment_inbox, migration 0026): what the worker runs at the
-- start of every batch.
--
-- The inbox is emptied as fast as it fills, so its statistics are rarely right: analyzed or
-- vacuumed while empty (autovacuum off, or the worker's own vacuum), Postgres believes it holds
-- nothing and plans a sequential scan and a sort of the whole table, twice, at every batch: with a
-- backlog of thousands, a drain that slows as the backlog grows. These settings, for the
-- function's statements only, keep the plan the one that is right at every size: a walk of the
-- primary key from `after` that stops after `wanted` rows, then a delete by key.
--
-- `after` starts the walk past ids already taken (apps/worker/src/inbox-cursor.ts); a share
-- (`share_count` > 1) keeps only the streams whose hash falls in it, so two loops never take the
-- same stream.
--
-- Rows come out whole (`setof deployment_inbox`), so every column of the inbox, `source` among
-- them, reaches the worker without a change here.
create or replace function take_from_inbox(after uuid, wanted integer, share_index integer,
                                           share_count integer)
returns setof deployment_inbox
language plpgsql volatile
set enable_seqscan = off
set enable_sort = off
set enable_bitmapscan = off
as $$
begin
  if after is null then
    return query
      delete from deployment_inbox
       where id = any(array(
         select i.id from deployment_inbox i
          where share_count < 2
             or (hashtext(i.workspace_id::text || ':' || lower(i.app) || ':' || lower(i.environment))
                 & 2147483647) % share_count = share_index
          order by i.id limit wanted
          for update skip locked))
      returning *;
  else
    return query
      delete from deployment_inbox
       where id = any(array(
         select i.id from deployment_inbox i
          where i.id > after
            and (share_count < 2
                 or (hashtext(i.workspace_id::text || ':' || lower(i.app) || ':' || lower(i.environment))
                     & 2147483647) % share_count = share_index)
          order by i.id limit wanted
          for update skip locked))
      returning *;
  end if;
end
$$;
