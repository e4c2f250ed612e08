import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { listApplications, listEnvironments } from '@shiplog/db/queries/catalog'
import { deploymentMatrix } from '@shiplog/db/queries/deployment-matrix'
import {
  type ApplicationSummary,
  type DeploymentMatrix,
  type EnvironmentSummary,
  nameKey,
} from '@shiplog/schema'
import type { Static } from '@sinclair/typebox'
import type { ByRepositoryQuery } from './model.ts'

type ByRepository = Static<typeof ByRepositoryQuery>

const repositoryKey = ({ repository }: ByRepository) =>
  repository === undefined ? undefined : nameKey(repository)

/** The workspace's applications (of one repository, if asked), each with its latest deployment. */
export async function listWorkspaceApplications(
  sql: Sql,
  owner: KeyOwner,
  query: ByRepository,
): Promise<{ data: ApplicationSummary[] }> {
  return { data: await listApplications(sql, owner.workspaceId, repositoryKey(query)) }
}

/** The workspace's environments, each with its deployment count and latest deployment. */
export async function listWorkspaceEnvironments(
  sql: Sql,
  owner: KeyOwner,
): Promise<{ data: EnvironmentSummary[] }> {
  return { data: await listEnvironments(sql, owner.workspaceId) }
}

/** What is deployed where: the latest deployment of every application in every environment. */
export function workspaceState(
  sql: Sql,
  owner: KeyOwner,
  query: ByRepository,
): Promise<DeploymentMatrix> {
  return deploymentMatrix(sql, owner.workspaceId, repositoryKey(query))
}
