import { type Static, Type } from '@sinclair/typebox'
import { ChangeType } from './change-type.ts'
import { DeploymentStatus } from './deployment-status.ts'

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()])

/** A recorded deployment as the read API returns it. */
export const DeploymentRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Assigned when the deployment was accepted' }),
    repositoryFullName: Type.String(),
    environment: Type.String({ description: 'Display spelling: the first one seen' }),
    app: Type.String({ description: 'Display spelling: the first one seen' }),
    version: Type.String(),
    commitHash: Type.String({ description: 'Lower-case hexadecimal' }),
    description: Nullable(Type.String()),
    author: Nullable(Type.String()),
    deployedAt: Type.String({ format: 'date-time' }),
    monorepoPath: Nullable(Type.String()),
    receivedAt: Type.String({ format: 'date-time', description: 'When the API accepted it' }),
    recordedAt: Type.String({ format: 'date-time', description: 'When the worker stored it' }),
    changeType: ChangeType,
  },
  { $id: 'DeploymentRecord' },
)
export type DeploymentRecord = Static<typeof DeploymentRecord>

/** One page of deployments, newest `deployedAt` first. */
export const DeploymentPage = Type.Object(
  {
    data: Type.Array(DeploymentStatus),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page; null on the last page',
    }),
  },
  { $id: 'DeploymentPage' },
)
export type DeploymentPage = Static<typeof DeploymentPage>
