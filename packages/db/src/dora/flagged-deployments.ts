// Which deployments a list's `failed` and `rework` filters keep: the same rule as the DORA keys
// (failure-signals.ts), followed from every rollback and reverting deployment of the listed
// environments from `since` on (deployment_dora_facts_signals, a few rows in a hundred) and
// from their incidents. No signal before `since` can name a deployment from `since` on.

import type { Fragment, SqlTag } from '../client.ts'
import { failureSignals, reworkDeployments, type SignalSources } from './failure-signals.ts'

/** Where a list looks: the workspace, optionally environments, applications and a start. */
export interface FlagScope {
  workspaceId: string
  /** The environments' name keys; undefined: every environment. */
  environmentKeys?: string[] | undefined
  /** RFC 3339: deployedAt at or after. */
  since?: string | undefined
  /** A relation of application ids (column `id`), when the list names an app or repository. */
  applications?: Fragment | undefined
}

function sourcesOf(sql: SqlTag, scope: FlagScope): SignalSources {
  const environments = sql`
    select e.id from environments e where e.workspace_id = ${scope.workspaceId}
      ${scope.environmentKeys === undefined ? sql`` : sql`and e.name_key = any(${scope.environmentKeys}::text[])`}`
  return {
    deployments: sql`(
      select f.deployment_id, f.application_id, f.environment_id, f.deployed_at, f.change_type,
             f.rollback_target, f.reverts
        from deployment_dora_facts f
       where f.environment_id in (${environments}) and (f.change_type = 'rollback' or f.reverts)
         ${scope.since === undefined ? sql`` : sql`and f.deployed_at >= ${scope.since}::text::timestamptz`}
         ${scope.applications === undefined ? sql`` : sql`and f.application_id in (${scope.applications})`})`,
    incidents: sql`(
      select i.* from incidents i
       where i.workspace_id = ${scope.workspaceId} and i.environment_id in (${environments}))`,
  }
}

/** The ids (column `id`) of the deployments some signal says failed: `changeFailure` is set. */
export function failedDeploymentIds(sql: SqlTag, scope: FlagScope): Fragment {
  const sources = sourcesOf(sql, scope)
  return sql`select distinct s.failed_id as id from (${failureSignals(sql, sources)}) s`
}

/** The ids (column `id`) of the rework deployments, as the rework rate counts them. */
export function reworkDeploymentIds(sql: SqlTag, scope: FlagScope): Fragment {
  const sources = sourcesOf(sql, scope)
  return sql`
    select r.fixer_id as id
      from (${reworkDeployments(sql, { ...sources, signals: sql`(${failureSignals(sql, sources)})` })}) r`
}
