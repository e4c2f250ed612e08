import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import {
  listApplications,
  listEnvironments,
  setEnvironmentPlace,
} from '@shiplog/db/queries/catalog'
import { deploymentMatrix } from '@shiplog/db/queries/deployment-matrix'
import {
  type ApplicationList,
  type ByRepositoryQuery,
  type DeploymentMatrix,
  type EnvironmentList,
  type EnvironmentPlaceInput,
  type EnvironmentSummary,
  nameKey,
} from '@shiplog/schema'
import { problems } from '../../kernel/problems.ts'

const repositoryKey = ({ repository }: ByRepositoryQuery) =>
  repository === undefined ? undefined : nameKey(repository)

/** The workspace's applications (of one repository, if asked), each with its latest deployment. */
export async function listWorkspaceApplications(
  sql: Sql,
  owner: Pick<KeyOwner, 'workspaceId'>,
  query: ByRepositoryQuery,
): Promise<ApplicationList> {
  return { data: await listApplications(sql, owner.workspaceId, repositoryKey(query)) }
}

/** The workspace's environments, each with its deployment count and latest deployment. */
export async function listWorkspaceEnvironments(
  sql: Sql,
  owner: Pick<KeyOwner, 'workspaceId'>,
): Promise<EnvironmentList> {
  return { data: await listEnvironments(sql, owner.workspaceId) }
}

/** What is deployed where: the latest deployment of every application in every environment. */
export function workspaceState(
  sql: Sql,
  owner: Pick<KeyOwner, 'workspaceId'>,
  query: ByRepositoryQuery,
): Promise<DeploymentMatrix> {
  return deploymentMatrix(sql, owner.workspaceId, repositoryKey(query))
}

/**
 * Sets where an environment stands in the pipeline and whether it is production, and answers
 * it as listed: 404 for a name the workspace has no deployments to.
 */
export async function placeWorkspaceEnvironment(
  sql: Sql,
  owner: KeyOwner,
  name: string,
  place: EnvironmentPlaceInput,
): Promise<EnvironmentSummary> {
  const key = nameKey(name)
  const found = await setEnvironmentPlace(sql, owner.workspaceId, key, place)
  const placed = found
    ? (await listEnvironments(sql, owner.workspaceId)).find((e) => nameKey(e.environment) === key)
    : undefined
  if (!placed) {
    throw problems.notFound(
      'No such environment in your workspace: it appears once a deployment to it is recorded.',
    )
  }
  return placed
}
