import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import {
  findDeploymentCommits,
  replaceDeploymentCommits,
  StoredListKept,
} from '@shiplog/db/queries/deployment-commits'
import type { DeploymentQueue } from '@shiplog/db/queue'
import type { CommitList, DeploymentCommits } from '@shiplog/schema'
import { problems } from '../../kernel/problems.ts'
import type { ReadClients } from '../../kernel/workspace.ts'
import { getDeployment } from './service.ts'

/** A body of 5,000 commits is about 800 KB; the deployment body limit (64 KiB) would refuse it. */
export const COMMITS_BODY_MAX_BYTES = 2 * 1024 * 1024

/**
 * Stores the commits of an accepted deployment, queued or recorded, replacing any sent before:
 * 404 for an id not of the workspace, 409 for one that failed to record or
 * for an empty list where commits are stored.
 */
export async function storeDeploymentCommits(
  clients: ReadClients,
  queue: DeploymentQueue,
  owner: Pick<KeyOwner, 'workspaceId'>,
  id: string,
  list: CommitList,
): Promise<void> {
  // Asked of the primary alone: the deployment may have been accepted a moment ago.
  const receipt = await getDeployment(
    { replica: clients.primary, primary: clients.primary },
    queue,
    owner,
    id,
  )
  if (receipt.status === 'failed') {
    throw problems.conflict(
      'This deployment failed to record, so it delivered nothing: replay it (bun run jobs retry), then send its commits again.',
    )
  }
  try {
    await replaceDeploymentCommits(clients.primary, owner.workspaceId, id, list)
  } catch (error) {
    if (!(error instanceof StoredListKept)) throw error
    throw problems.conflict(
      `This deployment has ${error.stored} commits stored, so an empty list does not replace them (it was kept): send the corrected list, not an empty one.`,
    )
  }
}

/** The commits stored for a deployment: the replica, else the primary (just stored); else 404. */
export async function deploymentCommitsOf(
  clients: ReadClients,
  owner: Pick<KeyOwner, 'workspaceId'>,
  id: string,
): Promise<DeploymentCommits> {
  const stored =
    (await findDeploymentCommits(clients.replica, owner.workspaceId, id)) ??
    (await findDeploymentCommits(clients.primary, owner.workspaceId, id))
  if (!stored) {
    throw problems.notFound(
      'No commits stored for this deployment in your workspace: shiplog notify sends them with the deployment.',
    )
  }
  return stored
}
