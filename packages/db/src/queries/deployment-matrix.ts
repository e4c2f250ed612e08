import { type DeploymentMatrix, inPipelineOrder, isoFromPostgres } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import { applicationsInOrder } from '../read/application-order.ts'
import { inSnapshot } from '../read/snapshot.ts'

// applicationId, environmentId, id, version, commitHash, deployedAt as Postgres prints it.
type PackedCell = [string, string, string, string, string, string]

/**
 * The matrix of a workspace, optionally of one repository: one row of `deployment_cells` per
 * cell that has a deployment (its primary key leads with the workspace), names filled in here.
 */
export async function deploymentMatrix(
  sql: Sql,
  workspaceId: string,
  repositoryKey?: string,
): Promise<DeploymentMatrix> {
  const { environments, applications, cells } = await inSnapshot(sql, async (tx) => {
    const inRepository = (column: string) =>
      repositoryKey === undefined
        ? tx``
        : tx`and ${tx(column)} in (
            select a.id from applications a join repositories r on r.id = a.repository_id
             where a.workspace_id = ${workspaceId} and r.full_name_key = ${repositoryKey})`
    // Timestamps as Postgres prints a timestamptz in UTC and ISO style, for isoFromPostgres:
    // a state holds thousands of cells, and iso_utc (or numeric arithmetic) costs Postgres a
    // microsecond each. Sent first on the connection, so it holds for the queries after it.
    const [, environments, cells] = await Promise.all([
      tx`select set_config('timezone', 'UTC', true), set_config('datestyle', 'ISO, YMD', true)`,
      tx<{ id: string; name: string; position: number | null; production: boolean | null }[]>`
        select id::text, name, position, production from environments
         where workspace_id = ${workspaceId}`.then((rows) => inPipelineOrder(rows)),
      tx`
        select application_id::text, environment_id::text, latest_id, latest_version,
               latest_commit_hash, latest_deployed_at::text
          from deployment_cells
         where workspace_id = ${workspaceId} ${inRepository('application_id')}`
        .values()
        .then((rows) => rows as unknown as PackedCell[]),
    ])
    // Every application has a cell: the batch that creates it records its first deployment.
    const ids = new Set(cells.map(([applicationId]) => applicationId))
    const applications = await applicationsInOrder(sql, tx, workspaceId, ids)
    return { environments, applications, cells }
  })
  // Each cell's place in the matrix, found from two small maps rather than a key per cell.
  const environmentIndex = new Map(
    environments.map((environment, index) => [environment.id, index]),
  )
  const cellsOf = new Map<string, (PackedCell | undefined)[]>()
  for (const cell of cells) {
    let row = cellsOf.get(cell[0])
    if (!row) {
      row = new Array<PackedCell | undefined>(environments.length)
      cellsOf.set(cell[0], row)
    }
    const index = environmentIndex.get(cell[1])
    if (index !== undefined) row[index] = cell
  }
  return {
    environments: environments.map((environment) => environment.name),
    rows: applications.map((application) => {
      const row = cellsOf.get(application.id)
      return {
        app: application.app,
        repositoryFullName: application.repositoryFullName,
        cells: environments.map((environment, index) => {
          const cell = row?.[index]
          return cell
            ? {
                id: cell[2],
                app: application.app,
                environment: environment.name,
                version: cell[3],
                commitHash: cell[4],
                deployedAt: isoFromPostgres(cell[5]),
              }
            : null
        }),
      }
    }),
  }
}
