import { type Static, Type } from '@sinclair/typebox'
import { REPORTED_TIME_MAX_FUTURE_MS } from './reported-time.ts'

/** How far ahead of the server clock `deployedAt` may be (clock skew allowance). */
export const DEPLOYED_AT_MAX_FUTURE_MS = REPORTED_TIME_MAX_FUTURE_MS

// The validator compiles these same patterns, so docs and behaviour cannot drift.
// Both are linear-time: adjacent parts never match the same character.
const REPOSITORY_FULL_NAME_PATTERN = '^[^\\s/]+(?:/[^\\s/]+)+$'
const COMMIT_HASH_PATTERN = '^[0-9a-fA-F]{7,70}$'

/**
 * A deployment's commit wherever Shiplog answers with one: the SHA, or null when it is unknown
 * (an integration whose sender named none, such as a Helm chart version: docs/integrations.md).
 * POST /v1/deployments still requires it: only integrations record a deployment without one.
 */
export const DeployedCommit = Type.Union([Type.String(), Type.Null()], {
  description:
    'The commit deployed, lower-case hexadecimal; null when it is unknown: an integration whose sender named no commit',
})

export const DeploymentInput = Type.Object(
  {
    repositoryFullName: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: REPOSITORY_FULL_NAME_PATTERN,
      format: 'name',
      description: 'Repository as owner/name; nested groups (group/sub/repo) are allowed',
      examples: ['acme/shop', 'acme/platform/api'],
    }),
    environment: Type.String({
      minLength: 1,
      maxLength: 255,
      format: 'name',
      description: 'Environment deployed to',
      examples: ['production', 'staging'],
    }),
    app: Type.String({
      minLength: 1,
      maxLength: 255,
      format: 'name',
      description: 'Application or service that was deployed',
      examples: ['api'],
    }),
    version: Type.String({
      minLength: 1,
      maxLength: 70,
      description: 'Version label of the deployed build',
      examples: ['1.4.2', 'v2026.05.01-3'],
    }),
    commitHash: Type.String({
      minLength: 7,
      maxLength: 70,
      pattern: COMMIT_HASH_PATTERN,
      description: 'Git commit SHA that was deployed (stored lower-case)',
      examples: ['9fceb02d0ae598e95dc970b74767f19372d61af8'],
    }),
    description: Type.Optional(
      Type.String({
        maxLength: 255,
        description: 'Free-text note about the deployment; null or blank means none',
        examples: ['Hotfix for checkout timeout'],
      }),
    ),
    author: Type.Optional(
      Type.String({
        maxLength: 255,
        description: 'Who triggered the deployment; null or blank means unknown',
        examples: ['octocat'],
      }),
    ),
    deployedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'RFC 3339 date-time with a time zone, at most 5 minutes in the future; defaults to now',
        examples: ['2026-05-01T12:00:00Z', '2026-05-01T14:00:00.123456+02:00'],
      }),
    ),
    monorepoPath: Type.Optional(
      Type.String({
        maxLength: 255,
        description: "Relative path of the app inside a monorepo, without '..' segments",
        examples: ['apps/api'],
      }),
    ),
  },
  {
    $id: 'DeploymentInput',
    additionalProperties: false,
    description: 'A deployment to record',
  },
)
export type DeploymentInput = Static<typeof DeploymentInput>

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description })

export const DeploymentFields = Type.Object(
  {
    repositoryFullName: Type.String({ description: 'Trimmed repository full name' }),
    environment: Type.String({ description: 'Trimmed environment' }),
    app: Type.String({ description: 'Trimmed app' }),
    version: Type.String({ description: 'Trimmed version' }),
    commitHash: DeployedCommit,
    description: Nullable('Trimmed description, or null when omitted'),
    author: Nullable('Trimmed author, or null when omitted'),
    deployedAt: Type.String({
      format: 'date-time',
      description:
        'The instant sent, or the request time when omitted, in UTC as Postgres stores it (ms, or µs when finer)',
    }),
    monorepoPath: Nullable("Path without leading './' or trailing '/', or null when omitted"),
  },
  {
    $id: 'DeploymentFields',
    additionalProperties: false,
    description: 'A validated, normalized deployment',
  },
)
export type DeploymentFields = Static<typeof DeploymentFields>

/** The body of the `202` to `POST /v1/deployments`: exactly `{"status":202}`. */
export const DeploymentAccepted = Type.Object(
  { status: Type.Literal(202, { description: 'Always 202' }) },
  { additionalProperties: false },
)
export type DeploymentAccepted = Static<typeof DeploymentAccepted>

/** The request headers `POST /v1/deployments` reads besides `Authorization`. */
export const DeploymentHeaders = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 257,
      description:
        'Makes a retry safe for 24 hours: the same key with the same body is answered `202` again and queues nothing; with another body it is a `422`. 1 to 255 printable ASCII characters, for example a UUID, bare or in double quotes (257 with them).',
    }),
  ),
})
export type DeploymentHeaders = Static<typeof DeploymentHeaders>
