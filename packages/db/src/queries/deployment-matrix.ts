import type { DeploymentMatrix, LatestDeployment } from '@shiplog/schema'
import type { Sql } from '../client.ts'

/** The matrix of a workspace, optionally of one repository. */
export async function deploymentMatrix(
  sql: Sql,
  workspaceId: string,
  repositoryKey?: string,
): Promise<DeploymentMatrix> {
  const environments = await sql<{ id: string; name: string }[]>`
    select id::text, name from environments where workspace_id = ${workspaceId} order by name_key`
  const applications = await sql<{ id: string; app: string; repositoryFullName: string }[]>`
    select a.id::text, a.name as app, r.full_name as "repositoryFullName"
      from applications a join repositories r on r.id = a.repository_id
     where a.workspace_id = ${workspaceId}
       ${repositoryKey === undefined ? sql`` : sql`and r.full_name_key = ${repositoryKey}`}
     order by r.full_name_key, a.name_key`
  // One index probe per cell (latest by deployedAt) instead of sorting every deployment.
  const cells = await sql<(LatestDeployment & { applicationId: string; environmentId: string })[]>`
    select a.id::text as "applicationId", e.id::text as "environmentId", latest.id, a.name as app,
           e.name as environment, latest.version, latest.commit_hash as "commitHash",
           iso_utc(latest.deployed_at) as "deployedAt"
      from applications a
      cross join environments e
      join lateral (
        select d.id, d.version, d.commit_hash, d.deployed_at from deployments d
         where d.application_id = a.id and d.environment_id = e.id
         order by d.deployed_at desc, d.id desc limit 1) latest on true
     where a.workspace_id = ${workspaceId} and e.workspace_id = ${workspaceId}`
  const byCell = new Map(
    cells.map(({ applicationId, environmentId, ...cell }) => [
      `${applicationId}/${environmentId}`,
      cell,
    ]),
  )
  return {
    environments: environments.map((environment) => environment.name),
    rows: applications.map((application) => ({
      app: application.app,
      repositoryFullName: application.repositoryFullName,
      cells: environments.map(
        (environment) => byCell.get(`${application.id}/${environment.id}`) ?? null,
      ),
    })),
  }
}
