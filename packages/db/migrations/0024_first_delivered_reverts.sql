-- deployment_dora_facts.reverts now says that a deployment delivered first, to its application
-- in its environment, a commit that reverts another (docs/dora.md): a revert re-delivered after
-- a rollback, or listed again by a later deployment, no longer signals a failure there. The
-- rule only narrows it, so rows that said true are checked again, inline (a migration runs
-- before packages/db/sql is applied, so it relies on none of its functions), and those left
-- holding nothing are removed, as dora_facts_of would not have written them.
update deployment_dora_facts f
   set reverts = false
 where f.reverts
   and not exists (
     -- Its reverting commits (own lists, then those of its repeated deliveries), each by index:
     -- a reverting one no earlier deployment of the stream delivered keeps it true.
     select 1
       from (select c.sha from deployment_commits c
              where c.deployment_id = f.deployment_id and cardinality(c.reverts) > 0
             union all
             select c.sha from deployment_aliases a
               join deployment_commits c on c.deployment_id = a.id
              where a.deployment_id = f.deployment_id and cardinality(c.reverts) > 0) c
      where not exists (
          select 1
            from deployment_commits ec
           cross join lateral (
             select e.* from deployments e
              where e.id = coalesce((select a.deployment_id from deployment_aliases a
                                      where a.id = ec.deployment_id), ec.deployment_id)
             offset 0) e
           where ec.sha = c.sha
             and e.application_id = f.application_id and e.environment_id = f.environment_id
             and e.voided_at is null
             and (e.deployed_at, e.id) < (f.deployed_at, f.deployment_id)));

delete from deployment_dora_facts
 where change_type = 'forward' and not reverts and cardinality(lead_seconds) = 0;
