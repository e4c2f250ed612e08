import type { ChangeFailure, ChangeFailureSignal } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import { earliestRecoveries, failureSignals } from './failure-signals.ts'

/**
 * Whether recorded deployments failed, by the rule of failure-signals.ts, as the DORA keys count
 * it. The signals that may name them are found by index probes, a few per deployment:
 * - rollbacks whose target is the deployment before it (deployment_dora_facts_rollback_target);
 * - later deployments of its stream with a commit that reverts one it delivered
 *   (deployment_commits_reverted);
 * - incidents naming it as their cause (incidents_by_cause).
 * Answers the failed ones among `deploymentIds` (a receipt, a page of the list) by id; one that
 * nothing says failed, or that is voided or unknown, is not in the map.
 */
export async function findChangeFailures(
  sql: Sql,
  deploymentIds: string[],
): Promise<Map<string, ChangeFailure>> {
  const failures = new Map<string, ChangeFailure>()
  if (deploymentIds.length === 0) return failures
  const rows = await sql<(ChangeFailureSignal & { subject: string; failureRecoveredAt: string })[]>`
    with d as (
      select * from deployments where id = any(${deploymentIds}::uuid[]) and voided_at is null
    ),
    signalling as (${signallingDeployments(sql)}),
    naming as (select i.* from d join incidents i on i.cause_deployment_id = d.id),
    signals as (
      ${failureSignals(sql, { deployments: sql`signalling`, incidents: sql`naming` })}
    ),
    recoveries as (${earliestRecoveries(sql, sql`signals`)})
    select s.failed_id::text as subject, s.kind, s.fixer_id::text as "deploymentId",
           s.incident_id::text as "incidentId", s.reverted_commit as "revertedCommit",
           iso_utc(s.recovered_at) as "recoveredAt",
           iso_utc(r.recovered_at) as "failureRecoveredAt"
      from signals s
      join d on d.id = s.failed_id
      join recoveries r on r.failed_id = s.failed_id
     order by s.failed_id, s.recovered_at nulls last, s.kind, s.fixer_id, s.incident_id,
              s.reverted_commit`
  for (const { subject, failureRecoveredAt, ...signal } of rows) {
    const known = failures.get(subject)
    if (known) known.signals.push(signal)
    else failures.set(subject, { signals: [signal], recoveredAt: failureRecoveredAt })
  }
  return failures
}

/**
 * The deployments whose signals may name one of `d`: rollbacks to the deployment before it, and
 * later deployments of its stream that revert a commit it delivered (whether it delivered it
 * first, the rule decides), as rows of deployment_dora_facts.
 */
function signallingDeployments(sql: Sql) {
  return sql`
    select r.deployment_id, r.application_id, r.environment_id, r.deployed_at, r.change_type,
           r.rollback_target, r.reverts
      from d
     cross join lateral deployment_before(d.application_id, d.environment_id, d.deployed_at, d.id) p
      join deployment_dora_facts r on r.rollback_target = p.id
    union
    select f.deployment_id, f.application_id, f.environment_id, f.deployed_at, f.change_type,
           f.rollback_target, f.reverts
      from d
     cross join lateral delivered_commits(d.id) c
      -- Probed per commit (deployment_commits_reverted) behind "offset 0": joined, Postgres
      -- misjudged how few commits revert and read every reverting commit of the workspace.
     cross join lateral (
       select rc.deployment_id from deployment_commits rc
        where rc.reverts @> array[c.sha] and cardinality(rc.reverts) > 0
       offset 0) rc
     cross join lateral (
       select * from deployment_dora_facts probed
        where probed.deployment_id = canonical_deployment(rc.deployment_id)
       offset 0) f
     where f.application_id = d.application_id and f.environment_id = d.environment_id
       and (f.deployed_at, f.deployment_id) > (d.deployed_at, d.id)`
}
