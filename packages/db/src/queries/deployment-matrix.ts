import { type DeploymentMatrix, instantFromMicros, type LatestDeployment } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import { inSnapshot } from './snapshot.ts'

type Cell = Omit<LatestDeployment, 'app' | 'environment' | 'deployedAt'> & {
  applicationId: string
  environmentId: string
  deployedAtMicros: string
}

/**
 * The matrix of a workspace, optionally of one repository: one row of `deployment_cells` per
 * cell that has a deployment (its primary key leads with the workspace), names filled in here.
 */
export async function deploymentMatrix(
  sql: Sql,
  workspaceId: string,
  repositoryKey?: string,
): Promise<DeploymentMatrix> {
  const [environments, applications, cells] = await inSnapshot(sql, (tx) => {
    const inRepository = (column: string) =>
      repositoryKey === undefined
        ? tx``
        : tx`and ${tx(column)} in (
            select a.id from applications a join repositories r on r.id = a.repository_id
             where a.workspace_id = ${workspaceId} and r.full_name_key = ${repositoryKey})`
    return Promise.all([
      tx<{ id: string; name: string }[]>`
        select id::text, name from environments where workspace_id = ${workspaceId}
         order by name_key`,
      tx<{ id: string; app: string; repositoryFullName: string }[]>`
        select a.id::text, a.name as app, r.full_name as "repositoryFullName"
          from applications a join repositories r on r.id = a.repository_id
         where a.workspace_id = ${workspaceId} ${inRepository('a.id')}
         order by r.full_name_key, a.name_key`,
      tx<Cell[]>`
        select application_id::text as "applicationId", environment_id::text as "environmentId",
               latest_id as id, latest_version as version, latest_commit_hash as "commitHash",
               -- Rendered here as iso_utc would: a state holds thousands of cells, and iso_utc
               -- costs Postgres a microsecond each.
               ((extract(epoch from latest_deployed_at) * 1000000)::bigint)::text as "deployedAtMicros"
          from deployment_cells
         where workspace_id = ${workspaceId} ${inRepository('application_id')}`,
    ])
  })
  const cellAt = new Map(cells.map((cell) => [`${cell.applicationId}/${cell.environmentId}`, cell]))
  return {
    environments: environments.map((environment) => environment.name),
    rows: applications.map((application) => ({
      app: application.app,
      repositoryFullName: application.repositoryFullName,
      cells: environments.map((environment) => {
        const cell = cellAt.get(`${application.id}/${environment.id}`)
        return cell
          ? {
              id: cell.id,
              app: application.app,
              environment: environment.name,
              version: cell.version,
              commitHash: cell.commitHash,
              deployedAt: instantFromMicros(BigInt(cell.deployedAtMicros)).iso,
            }
          : null
      }),
    })),
  }
}
