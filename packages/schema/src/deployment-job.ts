import { type Static, Type } from '@sinclair/typebox'
import { DeploymentFields } from './deployment.ts'
import './formats.ts'

/**
 * The payload of a queued deployment: validated fields plus what the API knew when it accepted
 * the request.
 */
export const DeploymentJob = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Deployment id assigned by the API' }),
    workspaceId: Type.String({ pattern: '^[0-9]+$' }),
    receivedAt: Type.String({ format: 'date-time' }),
    deployment: DeploymentFields,
  },
  { $id: 'DeploymentJob', additionalProperties: false },
)
export type DeploymentJob = Static<typeof DeploymentJob>
