// When a deployment failed and when it recovered, as the DORA keys and every receipt count it:
// the one place the rule is written. Three signals name a failed deployment:
// - rollback: a rollback returns to its target; the first deployment after that target failed,
//   recovered at the rollback;
// - revert: a deployment with a commit that reverts another; the first deployment of its stream
//   (its application in its environment) to deliver the reverted commit failed, recovered at the
//   reverting deployment;
// - incident: the deployment an incident names as its cause failed, recovered when the incident
//   was resolved (not while it is open).
// A deployment fails once whatever its signals, recovered at the earliest of their recoveries.
//
// Signals point backwards, from what signals to what failed, and are followed that way, each
// an index probe or two. A receipt follows every signal known now that may name its deployment
// (change-failures.ts); a window, those known at its end (`signalsOfWindow`).

import type { Fragment, SqlTag } from '../client.ts'
import type { WindowScope } from './window-scope.ts'

/** What signals: deployments (rows of deployment_dora_facts) and incidents, as relations. */
export interface SignalSources {
  /** Rows of deployment_dora_facts: the rollbacks and reverting deployments among them signal. */
  deployments: Fragment
  /** Rows of incidents: those naming a cause signal. */
  incidents: Fragment
}

/**
 * Every signal of `sources`, one row each: failed_id, kind ('rollback', 'revert' or
 * 'incident'), fixer_id (the rollback or reverting deployment, else null), incident_id,
 * reverted_commit (for a revert) and recovered_at (null while an incident is open).
 */
export function failureSignals(sql: SqlTag, sources: SignalSources): Fragment {
  return sql`
    ${rollbackSignals(sql, sources.deployments)}
    union all
    ${revertSignals(sql, sources.deployments)}
    union all
    ${incidentSignals(sql, sources.incidents)}`
}

/**
 * CTE `signals` of the facts statement: those of the window's own rollbacks and reverting
 * deployments (CTE `facts`), as the history the keys see ends at `until`, and of every incident
 * of its environment.
 */
export function signalsOfWindow(w: WindowScope): Fragment {
  return failureSignals(w.tx, { deployments: w.tx`facts`, incidents: w.incidents })
}

/** Each failed deployment of `signals` once, with its earliest recovery: failed_id, recovered_at. */
export function earliestRecoveries(sql: SqlTag, signals: Fragment): Fragment {
  return sql`
    select failed_id, min(recovered_at) as recovered_at from ${signals} group by failed_id`
}

function rollbackSignals(sql: SqlTag, deployments: Fragment): Fragment {
  return sql`
    select failed.id as failed_id, 'rollback' as kind, r.deployment_id as fixer_id,
           null::uuid as incident_id, null::text as reverted_commit, r.deployed_at as recovered_at
      from ${deployments} r
      join deployments target on target.id = r.rollback_target
     cross join lateral deployment_after(target.application_id, target.environment_id,
                                         target.deployed_at, target.id) failed
     where r.change_type = 'rollback'`
}

// The commits reverted are read from the reverting deployment's own lists and those of its
// repeated deliveries; the first delivery of each is probed by commit, each deployment behind
// `offset 0` so it stays a key probe.
function revertSignals(sql: SqlTag, deployments: Fragment): Fragment {
  return sql`
    select first_delivery.id, 'revert', fixer.deployment_id, null, reverted.sha, fixer.deployed_at
      from ${deployments} fixer
     cross join lateral (
       select unnest(c.reverts) as sha from deployment_commits c
        where c.deployment_id = fixer.deployment_id and cardinality(c.reverts) > 0
       union
       select unnest(c.reverts) from deployment_aliases a
         join deployment_commits c on c.deployment_id = a.id
        where a.deployment_id = fixer.deployment_id and cardinality(c.reverts) > 0) reverted
     cross join lateral (
       select e.id from deployment_commits ec
         cross join lateral (select * from deployments probed where probed.id = canonical_deployment(ec.deployment_id) offset 0) e
        where ec.sha = reverted.sha
          and e.application_id = fixer.application_id and e.environment_id = fixer.environment_id
          and e.voided_at is null
          and (e.deployed_at, e.id) < (fixer.deployed_at, fixer.deployment_id)
        order by e.deployed_at, e.id
        limit 1) first_delivery
     where fixer.reverts`
}

function incidentSignals(sql: SqlTag, incidents: Fragment): Fragment {
  return sql`
    select i.cause_deployment_id, 'incident', null, i.id, null, i.resolved_at
      from ${incidents} i
     where i.cause_deployment_id is not null`
}
