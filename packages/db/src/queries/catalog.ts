import {
  type ApplicationSummary,
  type EnvironmentPlaceInput,
  type EnvironmentSummary,
  inPipelineOrder,
} from '@shiplog/schema'
import type { Sql } from '../client.ts'

export type { ApplicationSummary, EnvironmentSummary, LatestDeployment } from '@shiplog/schema'

/**
 * Per application or per environment of the workspace, from its `deployment_cells` (a row per
 * application and environment, the primary key leading with the workspace): `totals`, the sum of
 * their counts, and `latest`, the newest of them. A few rows per group, never a count of
 * deployments.
 */
const perGroup = (sql: Sql, workspaceId: string, group: 'application_id' | 'environment_id') => sql`
  cells as (
    select * from deployment_cells where workspace_id = ${workspaceId}),
  totals as (
    select ${sql(group)}, sum(deployment_count)::int as count from cells group by 1),
  latest as (
    select distinct on (${sql(group)}) * from cells
     order by ${sql(group)}, latest_deployed_at desc, latest_id desc)`

const latestJson = `json_build_object(
  'id', latest.latest_id, 'app', a.name, 'environment', e.name, 'version', latest.latest_version,
  'commitHash', latest.latest_commit_hash, 'deployedAt', iso_utc(latest.latest_deployed_at))`

/** The workspace's applications, by repository then name, optionally of one repository. */
export async function listApplications(
  sql: Sql,
  workspaceId: string,
  repositoryKey?: string,
): Promise<ApplicationSummary[]> {
  return sql<ApplicationSummary[]>`
    with ${perGroup(sql, workspaceId, 'application_id')}
    select a.name as app, r.full_name as "repositoryFullName", a.monorepo_path as "monorepoPath",
           coalesce(totals.count, 0) as "deploymentCount",
           case when latest.latest_id is null then null else ${sql.unsafe(latestJson)} end as "lastDeployment"
      from applications a
      join repositories r on r.id = a.repository_id
      left join totals on totals.application_id = a.id
      left join latest on latest.application_id = a.id
      left join environments e on e.id = latest.environment_id
     where a.workspace_id = ${workspaceId}
       ${repositoryKey === undefined ? sql`` : sql`and r.full_name_key = ${repositoryKey}`}
     order by r.full_name_key, a.name_key`
}

type StoredEnvironment = Omit<EnvironmentSummary, 'position' | 'production'> & {
  name: string
  position: number | null
  production: boolean | null
}

/** The workspace's environments in pipeline order: as set, else by the rule of their names. */
export async function listEnvironments(
  sql: Sql,
  workspaceId: string,
): Promise<EnvironmentSummary[]> {
  const rows = await sql<StoredEnvironment[]>`
    with ${perGroup(sql, workspaceId, 'environment_id')}
    select e.name, e.position, e.production,
           coalesce(totals.count, 0) as "deploymentCount",
           case when latest.latest_id is null then null else ${sql.unsafe(latestJson)} end as "lastDeployment"
      from environments e
      left join totals on totals.environment_id = e.id
      left join latest on latest.environment_id = e.id
      left join applications a on a.id = latest.application_id
     where e.workspace_id = ${workspaceId}`
  return inPipelineOrder(rows).map(
    ({ name, position, production, deploymentCount, lastDeployment }) => ({
      environment: name,
      position,
      production,
      deploymentCount,
      lastDeployment,
    }),
  )
}

/**
 * The names of the workspace's production environments (as set, else by name), or of the others
 * (`production` false), in pipeline order.
 */
export async function productionEnvironments(
  sql: Sql,
  workspaceId: string,
  production = true,
): Promise<string[]> {
  const rows = await sql<{ name: string; position: number | null; production: boolean | null }[]>`
    select name, position, production from environments where workspace_id = ${workspaceId}`
  return inPipelineOrder(rows)
    .filter((environment) => environment.production === production)
    .map((environment) => environment.name)
}

/** The ids of the workspace's environments of these name keys (all of them without keys). */
export async function environmentIds(
  sql: Sql,
  workspaceId: string,
  keys?: string[],
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id::text from environments where workspace_id = ${workspaceId}
      ${keys === undefined ? sql`` : sql`and name_key = any(${keys}::text[])`}`
  return rows.map((row) => row.id)
}

/**
 * Sets an environment's place in the pipeline (a field left out stays, `null` goes back to the
 * rule); false when the workspace has no such environment.
 */
export async function setEnvironmentPlace(
  sql: Sql,
  workspaceId: string,
  environmentKey: string,
  place: EnvironmentPlaceInput,
): Promise<boolean> {
  const rows = await sql`
    update environments
       set position = ${place.position === undefined ? sql`position` : place.position},
           production = ${place.production === undefined ? sql`production` : place.production}
     where workspace_id = ${workspaceId} and name_key = ${environmentKey}
    returning 1`
  return rows.length > 0
}
