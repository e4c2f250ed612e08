import { type Static, Type } from '@sinclair/typebox'
import { DeployedCommit } from './deployment.ts'
import { DateTimeParameter, EnvironmentParameter, NameParameter } from './parameters.ts'

/** The latest recorded deployment of an application, environment or matrix cell, in brief. */
export const LatestDeployment = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The deployment’s id (its receipt)' }),
    app: Type.String({ description: 'The application deployed' }),
    environment: Type.String({ description: 'The environment deployed to' }),
    version: Type.String({ description: 'The version deployed' }),
    commitHash: DeployedCommit,
    deployedAt: Type.String({ format: 'date-time', description: 'When, in UTC' }),
  },
  { $id: 'LatestDeployment' },
)
export type LatestDeployment = Static<typeof LatestDeployment>

const Latest = (description: string) => Type.Union([LatestDeployment, Type.Null()], { description })

/** An application, with how many deployments it has and its latest. */
export const ApplicationSummary = Type.Object(
  {
    app: Type.String({ description: 'Display spelling: the first one seen' }),
    repositoryFullName: Type.String({ description: 'Its repository, owner/name' }),
    monorepoPath: Type.Union([Type.String(), Type.Null()], {
      description: 'From its latest deployment that named one',
    }),
    deploymentCount: Type.Integer({ minimum: 0, description: 'Recorded deployments of it' }),
    lastDeployment: Latest('Its latest deployment by deployedAt, in any environment; null if none'),
  },
  { $id: 'ApplicationSummary' },
)
export type ApplicationSummary = Static<typeof ApplicationSummary>

/** `GET /v1/applications`. */
export const ApplicationList = Type.Object({ data: Type.Array(ApplicationSummary) })
export type ApplicationList = Static<typeof ApplicationList>

/** An environment, with its place in the pipeline, how many deployments reached it and the latest. */
export const EnvironmentSummary = Type.Object(
  {
    environment: Type.String({ description: 'Display spelling: the first one seen' }),
    position: Type.Integer({
      minimum: 0,
      maximum: 1000,
      description:
        'Its place in the pipeline, lower first: as set, else by its name (dev 10, test or qa 20, others 30, staging 40, production 50)',
    }),
    production: Type.Boolean({
      description:
        'Whether it is production: as set, else by its name (prod, production, prd or live as a word)',
    }),
    deploymentCount: Type.Integer({ minimum: 0, description: 'Recorded deployments into it' }),
    lastDeployment: Latest('The latest deployment into it by deployedAt; null if none'),
  },
  { $id: 'EnvironmentSummary' },
)
export type EnvironmentSummary = Static<typeof EnvironmentSummary>

/** `GET /v1/environments`: in pipeline order (position, then name). */
export const EnvironmentList = Type.Object({ data: Type.Array(EnvironmentSummary) })
export type EnvironmentList = Static<typeof EnvironmentList>

/** `PUT /v1/environments/{name}`: its place in the pipeline; `null` goes back to the rule. */
export const EnvironmentPlaceInput = Type.Object(
  {
    position: Type.Optional(
      Type.Union(
        [
          Type.Integer({ minimum: 0, maximum: 1000, description: 'Lower comes first' }),
          Type.Null(),
        ],
        { description: 'Its place in the pipeline; null: by its name again' },
      ),
    ),
    production: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], {
        description: 'Whether it is production; null: by its name again',
      }),
    ),
  },
  { $id: 'EnvironmentPlaceInput', additionalProperties: false },
)
export type EnvironmentPlaceInput = Static<typeof EnvironmentPlaceInput>

/** Path of `PUT /v1/environments/{name}`. */
export const EnvironmentNameParams = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 255,
    format: 'name',
    description: 'The environment, any case (percent-encoded)',
    examples: ['production'],
  }),
})
export type EnvironmentNameParams = Static<typeof EnvironmentNameParams>

/** What is deployed where: applications × environments, the latest recorded deployment per cell. */
export const DeploymentMatrix = Type.Object(
  {
    environments: Type.Array(Type.String(), {
      description: 'Column order of every row: the environments in pipeline order',
    }),
    rows: Type.Array(
      Type.Object({
        app: Type.String({ description: 'The application of this row' }),
        repositoryFullName: Type.String({ description: 'Its repository, owner/name' }),
        cells: Type.Array(Latest('The latest deployment into that environment, or null'), {
          description: 'One per environment, null where never deployed',
        }),
      }),
    ),
  },
  { $id: 'DeploymentMatrix' },
)
export type DeploymentMatrix = Static<typeof DeploymentMatrix>

/** DORA deployment frequency: recorded deployments per UTC bucket per application. */
export const DeploymentFrequency = Type.Object(
  {
    environment: Type.String({ description: 'The environment counted' }),
    bucket: Type.Union([Type.Literal('day'), Type.Literal('week')], {
      description: 'UTC days, or ISO weeks from Monday',
    }),
    since: Type.String({ format: 'date-time', description: 'Start of the first bucket' }),
    until: Type.String({ format: 'date-time', description: 'End of the window (exclusive)' }),
    buckets: Type.Array(Type.String({ format: 'date-time' }), {
      description: 'Start of each bucket',
    }),
    applications: Type.Array(
      Type.Object({
        app: Type.String({ description: 'An application that deployed there in the window' }),
        repositoryFullName: Type.String({ description: 'Its repository, owner/name' }),
        counts: Type.Array(Type.Integer({ minimum: 0 }), {
          description: 'One per bucket, zero-filled',
        }),
      }),
    ),
    totals: Type.Array(Type.Integer({ minimum: 0 }), {
      description: 'All applications, per bucket',
    }),
  },
  { $id: 'DeploymentFrequency' },
)
export type DeploymentFrequency = Static<typeof DeploymentFrequency>

/** Query of `GET /v1/applications` and `GET /v1/state`. */
export const ByRepositoryQuery = Type.Object(
  {
    repository: NameParameter('Only this repository, owner/name (any case)'),
  },
  { additionalProperties: false },
)
export type ByRepositoryQuery = Static<typeof ByRepositoryQuery>

/** Query of `GET /v1/metrics/deployment-frequency`. */
export const FrequencyQuery = Type.Object(
  {
    environment: EnvironmentParameter,
    bucket: Type.Optional(
      Type.Union([Type.Literal('day'), Type.Literal('week')], {
        default: 'day',
        description: 'UTC days, or ISO weeks starting on Monday',
      }),
    ),
    since: Type.Optional(
      DateTimeParameter(
        'Window start (default: 30 days, or 12 weeks, before until; never before 0001-01-01)',
      ),
    ),
    until: Type.Optional(DateTimeParameter('Window end, exclusive (default: now)')),
  },
  { additionalProperties: false },
)
export type FrequencyQuery = Static<typeof FrequencyQuery>
