import { type Static, Type } from '@sinclair/typebox'

/** The latest recorded deployment of an application, environment or matrix cell, in brief. */
export const LatestDeployment = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    app: Type.String(),
    environment: Type.String(),
    version: Type.String(),
    commitHash: Type.String(),
    deployedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'LatestDeployment' },
)
export type LatestDeployment = Static<typeof LatestDeployment>

const Latest = Type.Union([LatestDeployment, Type.Null()])

/** An application, with how many deployments it has and its latest. */
export const ApplicationSummary = Type.Object(
  {
    app: Type.String({ description: 'Display spelling: the first one seen' }),
    repositoryFullName: Type.String(),
    monorepoPath: Type.Union([Type.String(), Type.Null()], {
      description: 'From its latest deployment that named one',
    }),
    deploymentCount: Type.Integer({ minimum: 0 }),
    lastDeployment: Latest,
  },
  { $id: 'ApplicationSummary' },
)
export type ApplicationSummary = Static<typeof ApplicationSummary>

/** An environment, with how many deployments reached it and the latest. */
export const EnvironmentSummary = Type.Object(
  {
    environment: Type.String({ description: 'Display spelling: the first one seen' }),
    deploymentCount: Type.Integer({ minimum: 0 }),
    lastDeployment: Latest,
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
        app: Type.String(),
        repositoryFullName: Type.String(),
        cells: Type.Array(Latest, {
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
    environment: Type.String(),
    bucket: Type.Union([Type.Literal('day'), Type.Literal('week')]),
    since: Type.String({ format: 'date-time', description: 'Start of the first bucket' }),
    until: Type.String({ format: 'date-time', description: 'End of the window (exclusive)' }),
    buckets: Type.Array(Type.String({ format: 'date-time' }), {
      description: 'Start of each bucket',
    }),
    applications: Type.Array(
      Type.Object({
        app: Type.String(),
        repositoryFullName: Type.String(),
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
