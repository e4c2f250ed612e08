import type { DeploymentRecord, PageCursor } from '@shiplog/schema'
import type { Fragment, Queryable, Sql } from '../client.ts'
import { instantAt, pageOf } from '../read/keyset.ts'
import { type Actor, actorColumns } from './audit-events.ts'
import {
  applicationIds,
  byApplication,
  changeTypeCondition,
  type DeploymentFilters,
  environmentCondition,
  environmentId,
  environmentKeysOf,
  flagConditions,
  flaggedIds,
  rowConditions,
  storedChangeType,
  windowConditions,
} from './deployment-filters.ts'

export type { DeploymentFilters } from './deployment-filters.ts'

/** One page of recorded deployments and the cursor of the next page. */
export interface DeploymentRows {
  records: DeploymentRecord[]
  next: PageCursor | null
}

interface Row extends DeploymentRecord {
  deployedAtMicros: string
}

/**
 * A page of one change type other than 'forward': every deployment of the type, from
 * deployment_dora_facts_change_type (a few per stream at most), then those passing the filters.
 */
function typedRows(sql: Sql, query: DeploymentFilters & { changeType: string }, limit: number) {
  return sql`
    with typed as materialized (
      select f.deployment_id from deployment_dora_facts f
       where f.environment_id in (
               select e.id from environments e where e.workspace_id = ${query.workspaceId}
                 ${environmentCondition(sql, query, sql`e.id`)})
         and f.change_type = ${query.changeType} and f.change_type <> 'forward'
         ${byApplication(query) ? sql`and f.application_id in (${applicationIds(sql, query)})` : sql``})
    select d.* from typed t join deployments d on d.id = t.deployment_id
     where d.workspace_id = ${query.workspaceId} ${rowConditions(sql, query)}
     order by d.deployed_at desc, d.id desc limit ${limit}`
}

/**
 * A page of failed or rework deployments: the few a filter keeps (flagged-deployments.ts), by
 * primary key, then those passing every filter (the other flag's set included).
 */
function flaggedRows(sql: Sql, query: DeploymentFilters, ids: Fragment, limit: number) {
  return sql`
    with flagged as materialized (${ids})
    select d.* from flagged t join deployments d on d.id = t.id
     where d.workspace_id = ${query.workspaceId}
       ${environmentCondition(sql, query, sql`d.environment_id`)}
       ${byApplication(query) ? sql`and d.application_id in (${applicationIds(sql, query)})` : sql``}
       ${rowConditions(sql, query)}
     order by d.deployed_at desc, d.id desc limit ${limit}`
}

/**
 * A page of a set of environments (production=true: a few): a backward walk of
 * deployments_by_environment per environment, `limit` rows each, merged.
 */
function environmentSetRows(sql: Sql, query: DeploymentFilters, limit: number) {
  return sql`
    select d.* from environments e
     cross join lateral (
       select d.* from deployments d
        where d.environment_id = e.id ${rowConditions(sql, query)}
        order by d.deployed_at desc, d.id desc limit ${limit}) d
     where e.workspace_id = ${query.workspaceId}
       and e.name_key = any(${environmentKeysOf(query) ?? []}::text[])
     order by d.deployed_at desc, d.id desc limit ${limit}`
}

/**
 * A page of some applications: per cell of those applications (deployment_cells), backward
 * walks of deployments_unique_delivery in two passes, so a page reads about its own size, not
 * cells × its size: first, from the index alone, the deployedAt the page cannot reach below (the
 * limit-th newest over all cells, of rows strictly before the cursor that pass the same
 * conditions: a subset of the page's rows, so its limit-th newest is no newer than the page's
 * last); then the rows from there on.
 */
function applicationRows(sql: Sql, query: DeploymentFilters, limit: number) {
  return sql`
    with cells as materialized (
      select c.workspace_id, c.application_id, c.environment_id from deployment_cells c
       where c.workspace_id = ${query.workspaceId}
         ${byApplication(query) ? sql`and c.application_id in (${applicationIds(sql, query)})` : sql``}
         ${environmentCondition(sql, query, sql`c.environment_id`)}),
    newest as (
      select x.deployed_at from cells c
      cross join lateral (
        select d.deployed_at from deployments d
         where d.application_id = c.application_id and d.environment_id = c.environment_id
               and d.voided_at is null
               ${windowConditions(sql, query)}
               ${changeTypeCondition(sql, query)}
               ${flagConditions(sql, query)}
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

/**
 * The page's rows, each filter combination by the index that answers it newest first, so that a
 * page costs about its own size, not the workspace's (plans checked in plans.test.ts):
 * - version or commit: few rows match; they are collected by deployments_by_version or
 *   deployments_by_commit_prefix, then sorted (materialized, so no plan walks a time index
 *   hoping to meet them);
 * - failed=true or rework=true: the few the DORA rule names, by primary key (flaggedRows);
 * - a change type other than forward: its deployments from their DORA facts (typedRows);
 * - app or repository: per cell of those applications (deployment_cells), backward walks of
 *   deployments_unique_delivery (application, environment, deployedAt) (applicationRows);
 * - a set of environments (production=true): per environment, backward walks of
 *   deployments_by_environment, merged (environmentSetRows);
 * - environment: a backward walk of deployments_by_environment;
 * - none: a backward walk of deployments_newest (workspace, deployedAt).
 */
function pageRows(sql: Sql, query: DeploymentFilters) {
  const limit = query.limit + 1
  const byEnvironment = environmentCondition(sql, query, sql`d.environment_id`)
  const byApplications = byApplication(query)
  if (query.version !== undefined || query.commitPrefix !== undefined) {
    return sql`
      with matches as materialized (
        select d.* from deployments d
         where d.workspace_id = ${query.workspaceId} ${byEnvironment} ${rowConditions(sql, query)}
           ${byApplications ? sql`and d.application_id in (${applicationIds(sql, query)})` : sql``})
      select * from matches d order by d.deployed_at desc, d.id desc limit ${limit}`
  }
  const kept = flaggedIds(sql, query).find(({ keep }) => keep)
  if (kept) return flaggedRows(sql, query, kept.ids, limit)
  const { changeType } = query
  if (changeType !== undefined && changeType !== 'forward' && changeType !== 'change') {
    return typedRows(sql, { ...query, changeType }, limit)
  }
  if (byApplications) return applicationRows(sql, query, limit)
  if (query.environmentKeys !== undefined) return environmentSetRows(sql, query, limit)
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

/**
 * A deployment row `d` as a record, its names joined as `a`, `r` and `e`; `changeType` computed
 * (a page) or as stored with the DORA facts (an export of millions: the same answer, faster).
 */
export const recordColumns = (sql: Sql, changeType: 'computed' | 'stored' = 'computed') => sql`
  d.id, r.full_name as "repositoryFullName", e.name as environment, a.name as app,
  d.version, d.commit_hash as "commitHash", d.description, d.author,
  iso_utc(d.deployed_at) as "deployedAt", d.monorepo_path as "monorepoPath",
  iso_utc(d.received_at) as "receivedAt", d.source, iso_utc(d.recorded_at) as "recordedAt",
  ${
    changeType === 'stored'
      ? storedChangeType(sql)
      : sql`change_type(d.application_id, d.environment_id, d.deployed_at, d.id, d.commit_hash, d.version)`
  } as "changeType"`

/** Lists a workspace's recorded deployments with keyset pagination. */
export async function listDeployments(sql: Sql, query: DeploymentFilters): Promise<DeploymentRows> {
  const rows = await sql<Row[]>`
    with page as (${pageRows(sql, query)})
    select ${recordColumns(sql)},
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
           iso_utc(d.received_at) as "receivedAt", d.source,
           iso_utc(d.recorded_at) as "recordedAt",
           case when d.voided_at is null
                then change_type(d.application_id, d.environment_id, d.deployed_at, d.id, d.commit_hash, d.version)
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

/** Who voided a deployment (its key, when a key did: a person is named by the audit), when, why. */
export interface VoidedBy {
  at: string
  reason: string | null
  keyName: string | null
  keyPrefix: string | null
}

/**
 * Voids a recorded deployment of the workspace (by its id, or a repeated delivery's receipt id),
 * once: the read model's trigger takes it out of the cells and counts in this transaction.
 * Resolves with its id when it voided it now, undefined when it was voided already.
 */
export async function voidDeployment(
  sql: Queryable,
  workspaceId: string,
  id: string,
  by: { actor: Actor; reason: string | null },
): Promise<string | undefined> {
  const { keyId, personId } = actorColumns(by.actor)
  const rows = await sql<{ id: string }[]>`
    update deployments
       set voided_at = now(), voided_by_key = ${keyId}, voided_by_person = ${personId},
           void_reason = ${by.reason}
     where workspace_id = ${workspaceId} and voided_at is null
       and id = coalesce(
             (select deployment_id from deployment_aliases where id = ${id}::uuid), ${id}::uuid)
    returning id`
  return rows[0]?.id
}
