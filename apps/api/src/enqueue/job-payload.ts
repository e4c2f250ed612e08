import type { DeploymentJob } from '@shiplog/schema'
import type { AcceptedDeployment } from './enqueuer.ts'

/** The queue payload of an accepted deployment: what the worker records, as it will store it. */
export function toJob(item: AcceptedDeployment, id: string): DeploymentJob {
  return {
    id,
    workspaceId: item.workspaceId,
    receivedAt: item.receivedAt.toISOString(),
    deployment: item.fields,
  }
}
