import type { Sql } from '../client.ts'
import { productionEnvironments } from './catalog.ts'

/** The workspace's repositories by name, for the overview's filter. */
async function repositoryNames(sql: Sql, workspaceId: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select full_name as name from repositories
     where workspace_id = ${workspaceId} order by full_name_key`
  return rows.map((row) => row.name)
}

/**
 * Who triggered the deployment of each cell (of one repository's applications, if asked), by
 * its id: one key probe per cell, the cells read where the matrix reads them.
 */
async function cellAuthors(
  sql: Sql,
  workspaceId: string,
  repositoryKey: string | undefined,
): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; author: string }[]>`
    select d.id, d.author from deployment_cells c join deployments d on d.id = c.latest_id
     where c.workspace_id = ${workspaceId} and d.author is not null
       ${
         repositoryKey === undefined
           ? sql``
           : sql`and c.application_id in (
               select a.id from applications a join repositories r on r.id = a.repository_id
                where a.workspace_id = ${workspaceId} and r.full_name_key = ${repositoryKey})`
       }`
  return new Map(rows.map((row) => [row.id, row.author]))
}

/** The deployment this one replaced in its application and environment, if any. */
export async function replacedDeployment(
  sql: Sql,
  workspaceId: string,
  id: string,
): Promise<{ id: string; version: string; deployedAt: string } | undefined> {
  const [row] = await sql<{ id: string; version: string; deployedAt: string }[]>`
    select p.id, p.version, iso_utc(p.deployed_at) as "deployedAt"
      from deployments d
     cross join lateral deployment_before(d.application_id, d.environment_id, d.deployed_at, d.id) p
     where d.id = ${id} and d.workspace_id = ${workspaceId}`
  return row
}

/** What the overview marks beside each cell, and the incidents still open. */
export interface OverviewMarks {
  /** Deployments shown in a cell that rolled back (their change type is rollback). */
  rolledBack: Set<string>
  /** Deployments an incident names as its cause. */
  causes: Set<string>
  /** Deployments shown in a cell whose newer deployment there was voided. */
  afterVoid: Set<string>
  /** Incidents not resolved yet: where, and which application (null: the whole environment). */
  openIncidents: { id: string; environment: string; appKey: string | null; title: string }[]
}

/**
 * The overview's marks, each from the few rows that can carry one, never from the workspace's
 * deployments: rollbacks (deployment_dora_facts_change_type) that are a cell's latest, incidents
 * (incidents_newest), voided deployments newer than their cell's latest (deployments_voided).
 */
async function overviewMarks(sql: Sql, workspaceId: string): Promise<OverviewMarks> {
  const ids = (rows: { id: string }[]) => new Set(rows.map((row) => row.id))
  const [rolledBack, causes, afterVoid, openIncidents] = await Promise.all([
    sql<{ id: string }[]>`
      select f.deployment_id::text as id from deployment_dora_facts f
       where f.environment_id in (select e.id from environments e where e.workspace_id = ${workspaceId})
         and f.change_type = 'rollback'
         and (select c.latest_id from deployment_cells c
               where c.workspace_id = ${workspaceId} and c.application_id = f.application_id
                 and c.environment_id = f.environment_id) = f.deployment_id`,
    sql<{ id: string }[]>`
      select distinct cause_deployment_id::text as id from incidents
       where workspace_id = ${workspaceId} and cause_deployment_id is not null`,
    sql<{ id: string }[]>`
      select distinct c.latest_id::text as id from deployments v
        join deployment_cells c on c.workspace_id = v.workspace_id
         and c.application_id = v.application_id and c.environment_id = v.environment_id
       where v.workspace_id = ${workspaceId} and v.voided_at is not null
         and v.deployed_at > c.latest_deployed_at`,
    sql<OverviewMarks['openIncidents']>`
      select i.id::text, e.name as environment, i.app_key as "appKey", i.title
        from incidents i join environments e on e.id = i.environment_id
       where i.workspace_id = ${workspaceId} and i.resolved_at is null
       order by i.started_at desc`,
  ])
  return {
    rolledBack: ids(rolledBack),
    causes: ids(causes),
    afterVoid: ids(afterVoid),
    openIncidents: [...openIncidents],
  }
}

/** The ids of the workspace's applications and environments, by their keys, for the overview. */
async function catalogIds(
  sql: Sql,
  workspaceId: string,
): Promise<{ applications: Map<string, string>; environments: Map<string, string> }> {
  const [applications, environments] = await Promise.all([
    sql<{ key: string; id: string }[]>`
      select r.full_name_key || ' ' || a.name_key as key, a.id::text
        from applications a join repositories r on r.id = a.repository_id
       where a.workspace_id = ${workspaceId}`,
    sql<{ key: string; id: string }[]>`
      select name_key as key, id::text from environments where workspace_id = ${workspaceId}`,
  ])
  return {
    applications: new Map(applications.map((row) => [row.key, row.id])),
    environments: new Map(environments.map((row) => [row.key, row.id])),
  }
}

/** What the overview reads beside its matrix (deployment-matrix.ts). */
export interface OverviewFacts {
  /** Every repository, for its filter. */
  repositories: string[]
  /** The names of the production environments, in pipeline order. */
  production: string[]
  marks: OverviewMarks
  /** Application ids by `<repository key> <name key>`, environment ids by name key. */
  ids: { applications: Map<string, string>; environments: Map<string, string> }
  /** Who triggered each cell's deployment, by its id. */
  authors: Map<string, string>
}

/**
 * The overview's facts of a workspace (its cells of one repository, if asked), sent together: in
 * the caller's snapshot, they agree with its matrix.
 */
export async function overviewFacts(
  sql: Sql,
  workspaceId: string,
  repositoryKey?: string,
): Promise<OverviewFacts> {
  const [repositories, marks, ids, authors, production] = await Promise.all([
    repositoryNames(sql, workspaceId),
    overviewMarks(sql, workspaceId),
    catalogIds(sql, workspaceId),
    cellAuthors(sql, workspaceId, repositoryKey),
    productionEnvironments(sql, workspaceId),
  ])
  return { repositories, production, marks, ids, authors }
}
