import { type Static, Type } from '@sinclair/typebox'

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()])

/** Why a deployment could not be recorded after all its attempts. */
export const DeploymentFailure = Type.Object(
  {
    reason: Type.String({ description: 'The error of the last attempt' }),
    attempts: Type.Integer({ minimum: 1 }),
    failedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'DeploymentFailure' },
)
export type DeploymentFailure = Static<typeof DeploymentFailure>

/**
 * What `GET /v1/deployments/{id}` answers for an accepted deployment, whatever became of it:
 * `queued` (accepted, not yet recorded, possibly being retried), `recorded`, or `failed` (every
 * attempt failed; `failure` says why; an operator can replay it). `Location` of the 202 points here.
 */
export const DeploymentStatus = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status: Type.Union([Type.Literal('queued'), Type.Literal('recorded'), Type.Literal('failed')]),
    repositoryFullName: Type.String(),
    environment: Type.String({
      description: 'Display spelling once recorded; as sent while queued',
    }),
    app: Type.String({ description: 'Display spelling once recorded; as sent while queued' }),
    version: Type.String(),
    commitHash: Type.String(),
    description: Nullable(Type.String()),
    author: Nullable(Type.String()),
    deployedAt: Type.String({ format: 'date-time' }),
    monorepoPath: Nullable(Type.String()),
    receivedAt: Type.String({ format: 'date-time' }),
    recordedAt: Nullable(Type.String({ format: 'date-time' })),
    duplicateOf: Nullable(
      Type.String({
        format: 'uuid',
        description: 'Set when this delivery repeated one already recorded under another id',
      }),
    ),
    failure: Type.Union([DeploymentFailure, Type.Null()]),
  },
  { $id: 'DeploymentStatus' },
)
export type DeploymentStatus = Static<typeof DeploymentStatus>
