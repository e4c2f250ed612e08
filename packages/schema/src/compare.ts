import { type Static, Type } from '@sinclair/typebox'
import { DeployedCommit } from './deployment.ts'
import { NameParameter } from './parameters.ts'

// Names follow the names rule (format 'name'): a bidi control is a 422, not an empty comparison.
const Environment = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 255, format: 'name', description, examples: [example] })

/** Query of `GET /v1/compare`. */
export const CompareQuery = Type.Object(
  {
    app: Type.String({
      minLength: 1,
      maxLength: 255,
      format: 'name',
      description: 'The application (any case)',
      examples: ['checkout'],
    }),
    from: Environment('The environment ahead (any case), e.g. staging', 'staging'),
    to: Environment('The environment behind (any case), e.g. production', 'production'),
    repository: NameParameter(
      'Its repository, owner/name (any case): needed when the name is used in several',
    ),
  },
  { additionalProperties: false },
)
export type CompareQuery = Static<typeof CompareQuery>

/** A deployment of one side of a comparison. */
export const ComparedDeployment = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    version: Type.String(),
    commitHash: DeployedCommit,
    deployedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'ComparedDeployment' },
)
export type ComparedDeployment = Static<typeof ComparedDeployment>

const Side = Type.Object({
  environment: Type.String({ description: 'Display spelling' }),
  deployment: Type.Union([ComparedDeployment, Type.Null()], {
    description: 'What runs there now: its latest recorded deployment; null if never deployed',
  }),
})

/** A commit `from` has and `to` does not. */
export const WaitingCommit = Type.Object(
  {
    sha: Type.String(),
    subject: Type.Union([Type.String(), Type.Null()], { description: 'null when not sent' }),
    author: Type.Union([Type.String(), Type.Null()], { description: 'null when not sent' }),
    committedAt: Type.String({ format: 'date-time', description: 'Committer time' }),
    url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description: 'Its page on the code host; null when the pipeline sent no webUrl',
    }),
  },
  { $id: 'WaitingCommit' },
)
export type WaitingCommit = Static<typeof WaitingCommit>

/** `GET /v1/compare`: what is in one environment and not yet in another. */
export const Comparison = Type.Object(
  {
    app: Type.String(),
    repositoryFullName: Type.String(),
    from: Side,
    to: Side,
    commits: Type.Array(WaitingCommit, {
      description: 'Delivered to from and not to to, newest committer time first (at most 1,000)',
    }),
    deployments: Type.Array(ComparedDeployment, {
      description: 'The deployments of from since the latest whose commit to has, newest first',
    }),
    complete: Type.Boolean({
      description: 'false when commits may be missing from the list: reason says why',
    }),
    reason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the list may be incomplete; null when complete',
    }),
  },
  { $id: 'Comparison' },
)
export type Comparison = Static<typeof Comparison>
