import { DeploymentFields } from '@shiplog/schema'
import { DeploymentSource } from '@shiplog/schema/deployment-status'
import { type Static, Type } from '@sinclair/typebox'

/**
 * A queued deployment, as the inbox and the retries hold it: its checked fields plus what the API
 * knew when it accepted the request. The worker checks a payload against it before recording.
 */
export const DeploymentJob = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Deployment id assigned by the API' }),
    workspaceId: Type.String({ pattern: '^[0-9]+$' }),
    receivedAt: Type.String({ format: 'date-time' }),
    deployment: DeploymentFields,
    // Optional: jobs queued for a retry before sources existed have none (`sourceOf`).
    source: Type.Optional(DeploymentSource),
  },
  { $id: 'DeploymentJob', additionalProperties: false },
)
export type DeploymentJob = Static<typeof DeploymentJob>

/** Where a job's deployment came from: `api` when it says nothing, as jobs from before did. */
export const sourceOf = (job: Pick<DeploymentJob, 'source'>): string => job.source ?? 'api'
