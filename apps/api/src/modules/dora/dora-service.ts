import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { type DoraRow, doraFigures } from '@shiplog/db/queries/dora'
import { DAY_MICROS } from '@shiplog/db/queries/frequency-window'
import { type DoraFigures, type DoraMetrics, instantFromMicros, nameKey } from '@shiplog/schema'
import type { Static } from '@sinclair/typebox'
import { problems } from '../../plugins/problem/index.ts'
import type { DoraQuery } from './model.ts'
import { windowOf } from './window.ts'

const DEFAULT_SPAN = 12n * 7n * DAY_MICROS
// The keys read the environment's history up to `until`; the window bounds what is aggregated.
const MAX_SPAN = 400n * DAY_MICROS

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole)

/** The five keys from one row of SQL figures, over `days` days. */
function figuresOf(row: DoraRow, days: number): DoraFigures {
  const { deployments, changes, failed, rework } = row
  return {
    deploymentFrequency: { deployments, perDay: days > 0 ? deployments / days : 0 },
    changeLeadTime: {
      commits: row.leadCommits,
      medianSeconds: row.leadMedianSeconds,
      p90Seconds: row.leadP90Seconds,
    },
    changeFailRate: { failed, deployments: changes, ratio: ratio(failed, changes) },
    failedDeploymentRecoveryTime: {
      recoveries: row.recoveries,
      medianSeconds: row.recoveryMedianSeconds,
      open: row.open,
    },
    deploymentReworkRate: { rework, deployments, ratio: ratio(rework, deployments) },
  }
}

const daysBetween = (from: bigint, to: bigint) => Number(to - from) / Number(DAY_MICROS)

/** `GET /v1/metrics/dora`: the five keys of an environment over a window, and per bucket. */
export async function doraMetricsOf(
  sql: Sql,
  owner: KeyOwner,
  query: Static<typeof DoraQuery>,
): Promise<DoraMetrics> {
  const unit = query.bucket ?? 'week'
  const { since, until } = windowOf(query, {
    defaultSpan: DEFAULT_SPAN,
    maxSpan: MAX_SPAN,
    tooLong: 'the window may hold at most 400 days: move since closer to until',
  })
  const figures = await doraFigures(sql, {
    workspaceId: owner.workspaceId,
    environmentKey: nameKey(query.environment),
    ...(query.app === undefined ? {} : { appKey: nameKey(query.app) }),
    ...(query.repository === undefined ? {} : { repositoryKey: nameKey(query.repository) }),
    since: since.micros,
    until: until.micros,
    bucket: unit,
  })
  if (!figures) {
    throw problems.notFound(
      'No such environment in your workspace: it appears once a deployment to it is recorded.',
    )
  }
  return {
    environment: query.environment,
    since: since.iso,
    until: until.iso,
    ...figuresOf(figures.window, daysBetween(since.micros, until.micros)),
    // The edge buckets count only their part inside the window.
    series: figures.buckets.map((bucket) => ({
      start: instantFromMicros(bucket.start).iso,
      ...figuresOf(bucket.figures, daysBetween(bucket.from, bucket.to)),
    })),
  }
}
