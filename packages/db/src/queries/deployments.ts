import type { DeploymentRecord, PageCursor } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import { instantAt, pageOf } from './keyset.ts'

/** Which deployments of a workspace to list, newest `deployedAt` first. */
export interface DeploymentFilters {
  workspaceId: string
  appKey?: string
  environmentKey?: string
  repositoryKey?: string
  version?: string
  /** Lower-case hexadecimal; matches commits that start with it. */
  commitPrefix?: string
  /** RFC 3339; deployedAt at or after. */
  since?: string
  /** RFC 3339; deployedAt before. */
  until?: string
  limit: number
  after?: PageCursor
}

/** One page of recorded deployments and the cursor of the next page. */
export interface DeploymentRows {
  records: DeploymentRecord[]
  next: PageCursor | null
}

interface Row extends DeploymentRecord {
  deployedAtMicros: string
}

// A commit prefix is matched on the indexed first seven digits (deployments_by_commit_prefix), as
// a range: every hexadecimal digit sorts below 'g'.
const INDEXED_COMMIT_DIGITS = 7

/** The window's conditions: since and until. */
function windowConditions(sql: Sql, query: DeploymentFilters) {
  return sql`
    ${query.since === undefined ? sql`` : sql`and d.deployed_at >= ${query.since}::text::timestamptz`}
    ${query.until === undefined ? sql`` : sql`and d.deployed_at < ${query.until}::text::timestamptz`}`
}

/**
 * The conditions every path applies to the rows it walks: exact filters, window and keyset.
 * The keyset's `deployed_at <=` is implied by the row comparison, stated so an index on
 * deployedAt alone can start its backward scan there.
 */
function rowConditions(sql: Sql, query: DeploymentFilters) {
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
    ${
      after === undefined
        ? sql``
        : sql`and d.deployed_at <= ${instantAt(sql, after.deployedAtMicros)}
              and (d.deployed_at, d.id) < (${instantAt(sql, after.deployedAtMicros)}, ${after.id}::uuid)`
    }`
}

// The applications a filter names: applications_by_name (workspace, name key), or the
// repository's through repositories_unique_name.
const applicationIds = (sql: Sql, query: DeploymentFilters) => sql`
  select a.id from applications a join repositories r on r.id = a.repository_id
   where a.workspace_id = ${query.workspaceId}
     ${query.appKey === undefined ? sql`` : sql`and a.name_key = ${query.appKey}`}
     ${query.repositoryKey === undefined ? sql`` : sql`and r.full_name_key = ${query.repositoryKey}`}`

const environmentId = (sql: Sql, query: DeploymentFilters) => sql`(
  select id from environments
   where workspace_id = ${query.workspaceId} and name_key = ${query.environmentKey ?? null})`

/**
 * The page's rows, each filter combination by the index that answers it newest first, so that a
 * page costs about its own size, not the workspace's (plans checked in plans.test.ts):
 * - version or commit: few rows match; they are collected by deployments_by_version or
 *   deployments_by_commit_prefix, then sorted (materialized, so no plan walks a time index
 *   hoping to meet them);
 * - app or repository: per cell of those applications (deployment_cells), backward walks of
 *   deployments_unique_delivery (application, environment, deployedAt) in two passes (below);
 * - environment: a backward walk of deployments_by_environment;
 * - none: a backward walk of deployments_newest (workspace, deployedAt).
 */
function pageRows(sql: Sql, query: DeploymentFilters) {
  const limit = query.limit + 1
  const byEnvironment =
    query.environmentKey === undefined
      ? sql``
      : sql`and d.environment_id = ${environmentId(sql, query)}`
  const byApplication = query.appKey !== undefined || query.repositoryKey !== undefined
  if (query.version !== undefined || query.commitPrefix !== undefined) {
    return sql`
      with matches as materialized (
        select d.* from deployments d
         where d.workspace_id = ${query.workspaceId} ${byEnvironment} ${rowConditions(sql, query)}
           ${byApplication ? sql`and d.application_id in (${applicationIds(sql, query)})` : sql``})
      select * from matches d order by d.deployed_at desc, d.id desc limit ${limit}`
  }
  if (byApplication) {
    // Two passes over the cells, so a page reads about its own size, not cells × its size:
    // first, from the index alone, the deployedAt the page cannot reach below (the limit-th
    // newest over all cells, of rows strictly before the cursor: a subset of the page's rows,
    // so its limit-th newest is no newer than the page's last); then the rows from there on.
    return sql`
      with cells as materialized (
        select c.workspace_id, c.application_id, c.environment_id from deployment_cells c
         where c.workspace_id = ${query.workspaceId}
           and c.application_id in (${applicationIds(sql, query)})
           ${query.environmentKey === undefined ? sql`` : sql`and c.environment_id = ${environmentId(sql, query)}`}),
      newest as (
        select x.deployed_at from cells c
        cross join lateral (
          select d.deployed_at from deployments d
           where d.application_id = c.application_id and d.environment_id = c.environment_id
                 and d.voided_at is null
                 ${windowConditions(sql, query)}
                 ${query.after === undefined ? sql`` : sql`and d.deployed_at < ${instantAt(sql, query.after.deployedAtMicros)}`}
           order by d.deployed_at desc limit ${limit}) x
         order by x.deployed_at desc limit ${limit}),
      reach as (
        select case when count(*) < ${limit} then '-infinity' else min(deployed_at) end as floor
          from newest)
      select d.* from cells c
      cross join lateral (
        select d.* from deployments d
         where d.workspace_id = c.workspace_id and d.application_id = c.application_id
           and d.environment_id = c.environment_id
           and d.deployed_at >= (select floor from reach)
               ${rowConditions(sql, query)}
         order by d.deployed_at desc, d.id desc limit ${limit}) d
       order by d.deployed_at desc, d.id desc limit ${limit}`
  }
  return sql`
    select d.* from deployments d
     where ${
       // Not both: with the workspace too, generic plans walk deployments_newest and filter.
       query.environmentKey === undefined
         ? sql`d.workspace_id = ${query.workspaceId}`
         : sql`d.environment_id = ${environmentId(sql, query)}`
     }
           ${rowConditions(sql, query)}
     order by d.deployed_at desc, d.id desc limit ${limit}`
}

/** Lists a workspace's recorded deployments with keyset pagination. */
export async function listDeployments(sql: Sql, query: DeploymentFilters): Promise<DeploymentRows> {
  const rows = await sql<Row[]>`
    with page as (${pageRows(sql, query)})
    select d.id, r.full_name as "repositoryFullName", e.name as environment, a.name as app,
           d.version, d.commit_hash as "commitHash", d.description, d.author,
           iso_utc(d.deployed_at) as "deployedAt", d.monorepo_path as "monorepoPath",
           iso_utc(d.received_at) as "receivedAt", iso_utc(d.recorded_at) as "recordedAt",
           change_type(d.application_id, d.environment_id, d.deployed_at, d.id, d.commit_hash) as "changeType",
           ((extract(epoch from d.deployed_at) * 1000000)::bigint)::text as "deployedAtMicros"
      from page d
      join applications a on a.id = d.application_id
      join repositories r on r.id = a.repository_id
      join environments e on e.id = d.environment_id
     order by d.deployed_at desc, d.id desc`
  const { page, next } = pageOf(rows, query.limit, (last) => ({
    deployedAtMicros: BigInt(last.deployedAtMicros),
    id: last.id,
  }))
  return { records: page.map(({ deployedAtMicros: _, ...record }) => record), next }
}

/**
 * A recorded deployment by its id, or by the receipt id of a delivery that repeated it: a probe
 * of deployment_aliases_pkey, then of deployments_pkey.
 */
export async function findRecordedDeployment(
  sql: Sql,
  workspaceId: string,
  id: string,
): Promise<
  { record: DeploymentRecord; duplicateOf: string | null; voided: VoidedBy | null } | undefined
> {
  const [row] = await sql<
    (DeploymentRecord & { canonicalId: string; voidedAt: string | null } & Omit<VoidedBy, 'at'>)[]
  >`
    select d.id as "canonicalId", r.full_name as "repositoryFullName", e.name as environment,
           a.name as app, d.version, d.commit_hash as "commitHash", d.description, d.author,
           iso_utc(d.deployed_at) as "deployedAt", d.monorepo_path as "monorepoPath",
           iso_utc(d.received_at) as "receivedAt", iso_utc(d.recorded_at) as "recordedAt",
           case when d.voided_at is null
                then change_type(d.application_id, d.environment_id, d.deployed_at, d.id, d.commit_hash)
           end as "changeType",
           iso_utc(d.voided_at) as "voidedAt", d.void_reason as reason, k.name as "keyName",
           k.prefix as "keyPrefix"
      from deployments d
      join applications a on a.id = d.application_id
      join repositories r on r.id = a.repository_id
      join environments e on e.id = d.environment_id
      left join api_keys k on k.id = d.voided_by_key
     where d.workspace_id = ${workspaceId}
       and d.id = coalesce(
             (select deployment_id from deployment_aliases where id = ${id}::uuid), ${id}::uuid)`
  if (!row) return undefined
  const { canonicalId, voidedAt, reason, keyName, keyPrefix, ...record } = row
  return {
    record: { ...record, id },
    duplicateOf: canonicalId === id ? null : canonicalId,
    voided: voidedAt === null ? null : { at: voidedAt, reason, keyName, keyPrefix },
  }
}

/** Who voided a deployment, when and why. */
export interface VoidedBy {
  at: string
  reason: string | null
  keyName: string | null
  keyPrefix: string | null
}

/**
 * Voids a recorded deployment of the workspace (by its id, or a repeated delivery's receipt id),
 * once: the read model's trigger takes it out of the cells and counts in this transaction.
 * Resolves true when it voided it now, false when it was voided already.
 */
export async function voidDeployment(
  sql: Sql,
  workspaceId: string,
  id: string,
  by: { keyId: string; reason: string | null },
): Promise<boolean> {
  const rows = await sql`
    update deployments set voided_at = now(), voided_by_key = ${by.keyId}, void_reason = ${by.reason}
     where workspace_id = ${workspaceId} and voided_at is null
       and id = coalesce(
             (select deployment_id from deployment_aliases where id = ${id}::uuid), ${id}::uuid)
    returning id`
  return rows.length > 0
}
