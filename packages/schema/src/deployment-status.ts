import { type Static, Type } from '@sinclair/typebox'
import { ChangeFailure } from './change-failure.ts'
import { ChangeType } from './change-type.ts'
import type { Checked } from './checked.ts'
import { DeployedCommit } from './deployment.ts'
import { validateBody } from './validate-body.ts'

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description })

/**
 * Where a deployment came from: a lower-case name, so an integration adds its own without a new
 * release of this schema. The database checks the same pattern (migration 0032).
 */
export const DeploymentSource = Type.String({
  pattern: '^[a-z][a-z0-9-]{0,31}$',
  description:
    'Where it came from: `api` (a request of your own), `cli` (Shiplog’s client: the `shiplog` CLI, the GitHub Action, the GitLab template), `github` or `gitlab` (an integration’s webhook), and later integrations by their name',
})

/** Why a deployment could not be recorded after all its attempts. */
export const DeploymentFailure = Type.Object(
  {
    reason: Type.String({ description: 'The error of the last attempt' }),
    attempts: Type.Integer({ minimum: 1, description: 'How many times recording was tried' }),
    failedAt: Type.String({ format: 'date-time', description: 'When the last attempt failed' }),
  },
  { $id: 'DeploymentFailure' },
)
export type DeploymentFailure = Static<typeof DeploymentFailure>

/** The optional body of `DELETE /v1/deployments/{id}`. */
export const DeploymentVoidInput = Type.Object(
  {
    reason: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'Why it is voided, for the audit' }),
    ),
  },
  { $id: 'DeploymentVoidInput', additionalProperties: false },
)
export type DeploymentVoidInput = Static<typeof DeploymentVoidInput>

/** Checks the optional body of `DELETE /v1/deployments/{id}`: none (undefined) has no reason. */
export function validateDeploymentVoid(body: unknown): Checked<{ reason: string | null }> {
  if (body === undefined) return { ok: true, value: { reason: null } }
  const checked = validateBody(DeploymentVoidInput, body)
  if (!checked.ok) return checked
  return { ok: true, value: { reason: (checked.value.reason as string | undefined) ?? null } }
}

/** Who voided a recorded deployment, when and why: kept for audit. */
export const DeploymentVoided = Type.Object(
  {
    at: Type.String({ format: 'date-time', description: 'When it was voided' }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why, as given, or null' }),
    keyName: Type.Union([Type.String(), Type.Null()], { description: 'The name of the key' }),
    keyPrefix: Type.Union([Type.String(), Type.Null()], {
      description: 'The display prefix of the key',
    }),
  },
  { $id: 'DeploymentVoided' },
)
export type DeploymentVoided = Static<typeof DeploymentVoided>

/**
 * What `GET /v1/deployments/{id}` answers for an accepted deployment, whatever became of it:
 * `queued` (accepted, not yet recorded, possibly being retried), `recorded`, or `failed` (every
 * attempt failed; `failure` says why; an operator can replay it). `Location` of the 202 points here.
 */
export const DeploymentStatus = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The id in the Location of the 202' }),
    status: Type.Union(
      [
        Type.Literal('queued'),
        Type.Literal('recorded'),
        Type.Literal('failed'),
        Type.Literal('voided'),
      ],
      {
        description:
          'queued: accepted, not yet recorded (maybe being retried); recorded; failed: every attempt failed; voided: recorded, then voided (see voided)',
      },
    ),
    repositoryFullName: Type.String({ description: 'The repository, owner/name' }),
    environment: Type.String({
      description: 'Display spelling once recorded; as sent while queued',
    }),
    app: Type.String({ description: 'Display spelling once recorded; as sent while queued' }),
    version: Type.String({ description: 'The version deployed' }),
    commitHash: DeployedCommit,
    description: Nullable(Type.String(), 'The note sent with it, or null'),
    author: Nullable(Type.String(), 'Who triggered it, or null'),
    deployedAt: Type.String({
      format: 'date-time',
      description: 'When it was deployed, in UTC (the request time when none was sent)',
    }),
    monorepoPath: Nullable(Type.String(), 'Where the app lives in the repository, or null'),
    receivedAt: Type.String({ format: 'date-time', description: 'When the API accepted it' }),
    source: DeploymentSource,
    recordedAt: Nullable(
      Type.String({ format: 'date-time' }),
      'When the worker stored it; null until recorded',
    ),
    changeType: Type.Union([ChangeType, Type.Null()], {
      description:
        'Once recorded, what it changed in its application and environment (see ChangeType); null while queued or failed',
    }),
    changeFailure: Type.Union([ChangeFailure, Type.Null()], {
      description:
        'Once recorded: whether it failed in production as the DORA keys count it (a rollback, a revert or an incident), why, and what recovered it; null when it did not, while queued, failed or voided',
    }),
    duplicateOf: Nullable(
      Type.String({ format: 'uuid' }),
      'Set when this delivery repeated one already recorded under another id',
    ),
    failure: Type.Union([DeploymentFailure, Type.Null()], {
      description: 'Why it could not be recorded, when status is failed; else null',
    }),
    voided: Type.Union([DeploymentVoided, Type.Null()], {
      description: 'When status is voided: when, by which key and why; else null',
    }),
    commitsUnknown: Type.Optional(
      Type.String({
        description:
          'Only on the receipt of a deployment an integration recorded whose commits could not be derived from pushes, and why: "no push received between 4f1c0e9a2b3d and 9e8d7c6b5a41"',
      }),
    ),
  },
  { $id: 'DeploymentStatus' },
)
export type DeploymentStatus = Static<typeof DeploymentStatus>
