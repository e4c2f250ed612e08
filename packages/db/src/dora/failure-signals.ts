// When a deployment failed and when it recovered, as the DORA keys and every receipt count it:
// the one place the rule is written. Three signals name a failed deployment:
// - rollback: a rollback returns to its target; the first deployment after that target failed,
//   recovered at the rollback;
// - revert: a commit that reverts another, where it is first delivered to the stream (its
//   application in its environment; `reverts` of deployment_dora_facts): the first deployment of
//   the stream to deliver the reverted commit, if that is an earlier one, failed, recovered at the
//   reverting deployment. A revert re-delivered later (after a rollback) signals nothing again; a
//   commit shipped with its own revert failed nothing; reverting a revert (a re-apply) fails
//   nothing: it brings back a change, it does not undo a failed one;
// - incident: the deployment an incident names as its cause failed, recovered when the incident
//   was resolved (not while it is open).
// A deployment fails once whatever its signals, recovered at the earliest of their recoveries.
//
// Failure is a fact of the deployment that failed, known from every signal stored now, whenever
// it arrived: a window counts a deployment of its own as failed even when the rollback, revert
// or incident came after the window's end, and recovered at the earliest recovery known now.
// So a span has the same figures asked alone or as a bucket of a longer window, and a report of
// a past month changes only when facts about its deployments arrive.
//
// Signals point backwards, from what signals to what failed, and are followed that way, each
// an index probe or two. A receipt follows every signal that may name its deployment
// (change-failures.ts); a window, those of its own deployments and of every later one of its
// environment that signals (statement.ts): no signal before `since` can name one of them.

import type { Fragment, SqlTag } from '../client.ts'

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
 * The rework among `sources` (fixer_id, each once): rollbacks, deployments whose signals name a
 * failed one (`signals`, a relation of failureSignals' rows) and deployments that fixed an
 * incident (notify --fixes), whatever its cause. The caller keeps those of its window.
 */
export function reworkDeployments(sql: SqlTag, sources: SignalSources & { signals: Fragment }) {
  return sql`
    select s.fixer_id from ${sources.signals} s where s.fixer_id is not null
    union
    select d.deployment_id from ${sources.deployments} d where d.change_type = 'rollback'
    union
    select i.fixed_by_deployment_id from ${sources.incidents} i
     where i.fixed_by_deployment_id is not null`
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

// The reverting commits are read from the reverting deployment's own lists and those of its
// repeated deliveries, kept where it delivered them first (delivered_before: a probe each, unless
// it lists one, which `reverts` of its facts says it delivered first: nearly every one). The
// first delivery of each commit they revert is probed by commit, each deployment behind
// `offset 0` so it stays a key probe; a reverted commit that itself reverts (a re-apply) is not
// followed.
function revertSignals(sql: SqlTag, deployments: Fragment): Fragment {
  return sql`
    select first_delivery.id, 'revert', fixer.deployment_id, null, reverted.sha, fixer.deployed_at
      from ${deployments} fixer
     cross join lateral (
       select distinct unnest(c.reverts) as sha
         from (select c.*, count(*) over () as listed
                 from (select c.sha, c.reverts from deployment_commits c
                        where c.deployment_id = fixer.deployment_id and cardinality(c.reverts) > 0
                       union all
                       select c.sha, c.reverts from deployment_aliases a
                         join deployment_commits c on c.deployment_id = a.id
                        where a.deployment_id = fixer.deployment_id and cardinality(c.reverts) > 0) c) c
        -- One reverting commit listed: fixer.reverts already says it delivered it first.
        where c.listed = 1
           or not delivered_before(c.sha, fixer.application_id, fixer.environment_id,
                                   fixer.deployed_at, fixer.deployment_id)) reverted
     cross join lateral (
       select e.id, ec.reverts from deployment_commits ec
         cross join lateral (select * from deployments probed where probed.id = canonical_deployment(ec.deployment_id) offset 0) e
        where ec.sha = reverted.sha
          and e.application_id = fixer.application_id and e.environment_id = fixer.environment_id
          and e.voided_at is null
          and (e.deployed_at, e.id) < (fixer.deployed_at, fixer.deployment_id)
        order by e.deployed_at, e.id
        limit 1) first_delivery
     where fixer.reverts and cardinality(first_delivery.reverts) = 0`
}

function incidentSignals(sql: SqlTag, incidents: Fragment): Fragment {
  return sql`
    select i.cause_deployment_id, 'incident', null, i.id, null, i.resolved_at
      from ${incidents} i
     where i.cause_deployment_id is not null`
}
