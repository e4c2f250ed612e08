import type { ChangeFailure, ChangeFailureSignal } from '@shiplog/schema'
import type { Sql } from '../client.ts'

/**
 * Whether a recorded deployment failed as the DORA keys count it (queries/dora.ts), from the
 * signals that point back at it, each an index probe or two:
 * - a rollback whose target is the deployment before it (deployment_dora_facts_rollback_target);
 * - a later deployment of its stream with a commit that reverts one it first delivered
 *   (deployment_commits_reverted);
 * - an incident naming it as its cause (incidents_by_cause).
 * Answers the failed ones among `deploymentIds` (a receipt, a page of the list) by id; one that
 * nothing says failed, or that is voided or unknown, is not in the map.
 */
export async function findChangeFailures(
  sql: Sql,
  deploymentIds: string[],
): Promise<Map<string, ChangeFailure>> {
  const failures = new Map<string, ChangeFailure>()
  if (deploymentIds.length === 0) return failures
  const rows = await sql<(ChangeFailureSignal & { subject: string })[]>`
    with d as (
      select * from deployments where id = any(${deploymentIds}::uuid[]) and voided_at is null
    ),
    previous as (
      select d.id as subject, p.id from d
       cross join lateral deployment_before(d.application_id, d.environment_id, d.deployed_at, d.id) p
    ),
    first_delivered as (
      select d.id as subject, d.application_id, d.environment_id, d.deployed_at, c.sha from d cross join lateral delivered_commits(d.id) c
       where not delivered_before(c.sha, d.application_id, d.environment_id, d.deployed_at, d.id)
    ),
    signals as (
      select p.subject, 'rollback' as kind, r.deployment_id as deployment, null::uuid as incident,
             null::text as commit, r.deployed_at as recovered
        from previous p join deployment_dora_facts r on r.rollback_target = p.id
      union
      select fd.subject, 'revert', f.id, null, fd.sha, f.deployed_at
        from first_delivered fd
        -- Probed per commit (deployment_commits_reverted) behind "offset 0": joined, Postgres
        -- misjudged how few commits revert and read every reverting commit of the workspace.
        cross join lateral (
          select rc.deployment_id from deployment_commits rc
           where rc.reverts @> array[fd.sha] and cardinality(rc.reverts) > 0
          offset 0) rc
        cross join lateral (select * from deployments probed where probed.id = canonical_deployment(rc.deployment_id) offset 0) f
       where f.application_id = fd.application_id and f.environment_id = fd.environment_id
         and f.voided_at is null and (f.deployed_at, f.id) > (fd.deployed_at, fd.subject)
      union
      select d.id, 'incident', null, i.id, null, i.resolved_at
        from d join incidents i on i.cause_deployment_id = d.id
    )
    select subject::text, kind, deployment::text as "deploymentId", incident::text as "incidentId",
           commit as "revertedCommit", iso_utc(recovered) as "recoveredAt"
      from signals
     order by subject, recovered nulls last, kind, deployment, incident, commit`
  for (const { subject, ...signal } of rows) {
    const known = failures.get(subject)
    if (known) known.signals.push(signal)
    else failures.set(subject, { signals: [signal], recoveredAt: signal.recoveredAt })
  }
  return failures
}
