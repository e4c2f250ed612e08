import type { ChangeType, PageCursor } from '@shiplog/schema'
import type { Fragment, Sql } from '../client.ts'
import { failedDeploymentIds, reworkDeploymentIds } from '../dora/flagged-deployments.ts'
import { instantAt } from '../read/keyset.ts'

/** Which deployments of a workspace to list, newest `deployedAt` first. */
export interface DeploymentFilters {
  workspaceId: string
  appKey?: string
  environmentKey?: string
  /** Only these environments (the production ones, say); with environmentKey too, both must hold. */
  environmentKeys?: string[]
  repositoryKey?: string
  version?: string
  /** Lower-case hexadecimal; matches commits that start with it. */
  commitPrefix?: string
  /** RFC 3339; deployedAt at or after. */
  since?: string
  /** RFC 3339; deployedAt before. */
  until?: string
  /** Only deployments of this change type; 'change': initial or forward (what fails, for DORA). */
  changeType?: ChangeType | 'change'
  /** Only deployments some signal says failed (true), or none does (false). */
  failed?: boolean
  /** Only rework (true: rollbacks, reverting and --fixes deployments), or none of it (false). */
  rework?: boolean
  limit: number
  after?: PageCursor
}

// A commit prefix is matched on the indexed first seven digits (deployments_by_commit_prefix), as
// a range: every hexadecimal digit sorts below 'g'.
const INDEXED_COMMIT_DIGITS = 7

/**
 * The change type of the deployment row `d`, from its DORA facts (deployment_dora_facts_pkey): a
 * deployment that is not 'forward' always has a row there, holding the type change_type()
 * computes (kept exact by the triggers, checked by `bun run db:verify`). One key probe, where
 * change_type() walks the stream twice: what a filter or an export of millions of rows needs.
 */
export const storedChangeType = (sql: Sql) => sql`
  coalesce((select f.change_type from deployment_dora_facts f where f.deployment_id = d.id), 'forward')`

/** The change type asked for, if any. */
export function changeTypeCondition(sql: Sql, query: DeploymentFilters) {
  if (query.changeType === undefined) return sql``
  if (query.changeType === 'change')
    return sql`and ${storedChangeType(sql)} in ('initial', 'forward')`
  return sql`and ${storedChangeType(sql)} = ${query.changeType}`
}

/** The ids `failed` or `rework` keep (true) or leave out (false), by the DORA rule, and which. */
export function flaggedIds(sql: Sql, query: DeploymentFilters) {
  const scope = {
    workspaceId: query.workspaceId,
    environmentKeys: environmentKeysOf(query),
    since: query.since,
    applications: byApplication(query) ? applicationIds(sql, query) : undefined,
  }
  const sets = []
  if (query.failed !== undefined)
    sets.push({ keep: query.failed, ids: failedDeploymentIds(sql, scope) })
  if (query.rework !== undefined)
    sets.push({ keep: query.rework, ids: reworkDeploymentIds(sql, scope) })
  return sets
}

/** The `failed` and `rework` conditions: uncorrelated, so each set is computed once and hashed. */
export function flagConditions(sql: Sql, query: DeploymentFilters) {
  return flaggedIds(sql, query).reduce(
    (conditions, { keep, ids }) =>
      sql`${conditions} and d.id ${keep ? sql`in` : sql`not in`} (${ids})`,
    sql``,
  )
}

/** Whether the filters name applications (an app or a repository). */
export const byApplication = (query: DeploymentFilters) =>
  query.appKey !== undefined || query.repositoryKey !== undefined

/** The window's conditions: since and until. */
export function windowConditions(sql: Sql, query: DeploymentFilters) {
  return sql`
    ${query.since === undefined ? sql`` : sql`and d.deployed_at >= ${query.since}::text::timestamptz`}
    ${query.until === undefined ? sql`` : sql`and d.deployed_at < ${query.until}::text::timestamptz`}`
}

/**
 * The conditions every path applies to the rows it walks: exact filters, window and keyset.
 * The keyset's `deployed_at <=` is implied by the row comparison, stated so an index on
 * deployedAt alone can start its backward scan there.
 */
export function rowConditions(sql: Sql, query: DeploymentFilters) {
  const { after, commitPrefix } = query
  const indexed = (prefix: string) => prefix.slice(0, INDEXED_COMMIT_DIGITS)
  return sql`
    and d.voided_at is null
    ${query.version === undefined ? sql`` : sql`and d.version = ${query.version}`}
    ${
      commitPrefix === undefined
        ? sql``
        : sql`and left(d.commit_hash, 7) collate "C" >= ${indexed(commitPrefix)}
              and left(d.commit_hash, 7) collate "C" < ${`${indexed(commitPrefix)}g`}
              and starts_with(d.commit_hash, ${commitPrefix})`
    }
    ${windowConditions(sql, query)}
    ${changeTypeCondition(sql, query)}
    ${flagConditions(sql, query)}
    ${
      after === undefined
        ? sql``
        : sql`and d.deployed_at <= ${instantAt(sql, after.deployedAtMicros)}
              and (d.deployed_at, d.id) < (${instantAt(sql, after.deployedAtMicros)}, ${after.id}::uuid)`
    }`
}

// The applications a filter names: applications_by_name (workspace, name key), or the
// repository's through repositories_unique_name.
export const applicationIds = (sql: Sql, query: DeploymentFilters) => sql`
  select a.id from applications a join repositories r on r.id = a.repository_id
   where a.workspace_id = ${query.workspaceId}
     ${query.appKey === undefined ? sql`` : sql`and a.name_key = ${query.appKey}`}
     ${query.repositoryKey === undefined ? sql`` : sql`and r.full_name_key = ${query.repositoryKey}`}`

/** The environments' name keys a list is limited to, or undefined for all. */
export function environmentKeysOf(query: DeploymentFilters): string[] | undefined {
  const { environmentKey, environmentKeys } = query
  if (environmentKeys === undefined)
    return environmentKey === undefined ? undefined : [environmentKey]
  if (environmentKey === undefined) return environmentKeys
  return environmentKeys.filter((key) => key === environmentKey)
}

/**
 * The condition on an environment column: one environment (environments' unique name, as a
 * scalar subquery), a set of them, or none.
 */
export function environmentCondition(sql: Sql, query: DeploymentFilters, column: Fragment) {
  if (query.environmentKeys === undefined) {
    return query.environmentKey === undefined
      ? sql``
      : sql`and ${column} = ${environmentId(sql, query)}`
  }
  return sql`and ${column} in (
    select id from environments
     where workspace_id = ${query.workspaceId}
       and name_key = any(${environmentKeysOf(query) ?? []}::text[]))`
}

export const environmentId = (sql: Sql, query: DeploymentFilters) => sql`(
  select id from environments
   where workspace_id = ${query.workspaceId} and name_key = ${query.environmentKey ?? null})`
