-- What a deployment changed in its application and environment, from the deployments before it
-- that are not voided (04_stream_probes.sql): 'initial' (none), 'redeploy' (the same as the one
-- before, by same_change), 'rollback' (a commit an earlier deployment delivered, other than the
-- one before; where the commit is unknown, a version an earlier deployment whose commit is
-- unknown delivered), 'forward' (otherwise). Computed when read, never stored here: a backfill arriving
-- late, or a deployment voided, changes its neighbours' answers. (The DORA facts store it, and
-- their triggers rewrite the neighbours: 07_dora_facts.sql.)

-- Whether two deployments of a stream deliver the same thing: the same commit, or, where either
-- commit is unknown (a sender that names none: docs/dora.md), the same version.
create or replace function same_change(commit text, of_version text,
                                       other_commit text, other_version text) returns boolean
language sql immutable parallel safe as $$
  select case when commit is not null and other_commit is not null then commit = other_commit
              else of_version = other_version end
$$;

create or replace function change_type(application bigint, environment bigint, at timestamptz,
                                       deployment uuid, commit text, of_version text) returns text
language sql stable parallel safe as $$
  select case
           when before.id is null then 'initial'
           when same_change(before.commit_hash, before.version, commit, of_version) then 'redeploy'
           when exists (select 1 from same_delivery_before(commit, of_version, application,
                                                           environment, at, deployment))
             then 'rollback'
           else 'forward'
         end
    from (select) one
    left join lateral deployment_before(application, environment, at, deployment) before on true
$$;
