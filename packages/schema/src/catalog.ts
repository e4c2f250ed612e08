import { type Static, Type } from '@sinclair/typebox'

/** The latest recorded deployment of an application, environment or matrix cell, in brief. */
export const LatestDeployment = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The deployment’s id (its receipt)' }),
    app: Type.String({ description: 'The application deployed' }),
    environment: Type.String({ description: 'The environment deployed to' }),
    version: Type.String({ description: 'The version deployed' }),
    commitHash: Type.String({ description: 'The commit deployed' }),
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

/** An environment, with how many deployments reached it and the latest. */
export const EnvironmentSummary = Type.Object(
  {
    environment: Type.String({ description: 'Display spelling: the first one seen' }),
    deploymentCount: Type.Integer({ minimum: 0, description: 'Recorded deployments into it' }),
    lastDeployment: Latest('The latest deployment into it by deployedAt; null if none'),
  },
  { $id: 'EnvironmentSummary' },
)
export type EnvironmentSummary = Static<typeof EnvironmentSummary>

/** What is deployed where: applications × environments, the latest recorded deployment per cell. */
export const DeploymentMatrix = Type.Object(
  {
    environments: Type.Array(Type.String(), { description: 'Column order of every row' }),
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
