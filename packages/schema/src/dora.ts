import { type Static, Type } from '@sinclair/typebox'
import { DateTimeParameter, NameParameter } from './parameters.ts'

const Count = (description: string) => Type.Integer({ minimum: 0, description })
const Seconds = (description: string) =>
  Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description: `${description}; null without data`,
  })
const Ratio = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
  description: 'The share, from 0 to 1; null when there is nothing to divide by',
})

/** The five DORA keys of a window or of one bucket of it. */
export const DoraFigures = Type.Object(
  {
    deploymentFrequency: Type.Object({
      deployments: Count('Recorded deployments'),
      perDay: Type.Number({ minimum: 0, description: 'deployments ÷ days' }),
    }),
    changeLeadTime: Type.Object({
      commits: Count('Commits first delivered here by a deployment other than the first'),
      medianSeconds: Seconds('Median of deployedAt minus committer time'),
      p90Seconds: Seconds('90th percentile of the same'),
    }),
    changeFailRate: Type.Object({
      failed: Count('Failed deployments of type initial or forward'),
      deployments: Count('Deployments of type initial or forward'),
      ratio: Ratio,
    }),
    failedDeploymentRecoveryTime: Type.Object({
      recoveries: Count('Failed deployments that were recovered'),
      medianSeconds: Seconds('Median time from the failed deployment to its recovery'),
      open: Count('Failed deployments not recovered yet'),
    }),
    deploymentReworkRate: Type.Object({
      rework: Count('Rollbacks, and deployments that fixed a failure'),
      deployments: Count('Recorded deployments'),
      ratio: Ratio,
    }),
  },
  { $id: 'DoraFigures' },
)
export type DoraFigures = Static<typeof DoraFigures>

/** `GET /v1/metrics/dora`: the five keys of one environment (or all production ones) over a window, and per bucket. */
export const DoraMetrics = Type.Object(
  {
    environment: Type.String({
      description:
        'The environment asked for; without one, the production environments covered, joined by ", "',
    }),
    environments: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'Only when no environment was asked for: the production environments counted together, in pipeline order',
      }),
    ),
    since: Type.String({ format: 'date-time' }),
    until: Type.String({ format: 'date-time' }),
    ...DoraFigures.properties,
    series: Type.Array(
      Type.Object({
        start: Type.String({ format: 'date-time', description: 'Start of the bucket' }),
        ...DoraFigures.properties,
      }),
      { description: 'Per bucket (week or day) of the window, in order, every bucket listed' },
    ),
  },
  { $id: 'DoraMetrics' },
)
export type DoraMetrics = Static<typeof DoraMetrics>

/** Query of `GET /v1/metrics/dora`. */
export const DoraQuery = Type.Object(
  {
    environment: NameParameter(
      'The environment (any case), e.g. production; without it, every production environment of the workspace together (GET /v1/environments says which are)',
    ),
    app: NameParameter('Only this application (any case, in any repository)'),
    repository: NameParameter('Only the applications of this repository, owner/name (any case)'),
    since: Type.Optional(DateTimeParameter('Window start (default: 12 weeks before until)')),
    until: Type.Optional(DateTimeParameter('Window end, exclusive (default: now)')),
    bucket: Type.Optional(
      Type.Union([Type.Literal('week'), Type.Literal('day')], {
        default: 'week',
        description: 'The buckets of series: ISO weeks from Monday (default), or UTC days',
      }),
    ),
  },
  { additionalProperties: false },
)
export type DoraQuery = Static<typeof DoraQuery>
