import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { type DoraRow, doraFigures } from '@shiplog/db/queries/dora'
import { bucketOfDay, bucketStart, DAY_MICROS, dayOf } from '@shiplog/db/queries/frequency-window'
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
function figuresOf(row: DoraRow | undefined, days: number): DoraFigures {
  const deployments = row?.deployments ?? 0
  const changes = row?.changes ?? 0
  const failed = row?.failed ?? 0
  const rework = row?.rework ?? 0
  return {
    deploymentFrequency: { deployments, perDay: days > 0 ? deployments / days : 0 },
    changeLeadTime: {
      commits: row?.leadCommits ?? 0,
      medianSeconds: row?.leadMedianSeconds ?? null,
      p90Seconds: row?.leadP90Seconds ?? null,
    },
    changeFailRate: { failed, deployments: changes, ratio: ratio(failed, changes) },
    failedDeploymentRecoveryTime: {
      recoveries: row?.recoveries ?? 0,
      medianSeconds: row?.recoveryMedianSeconds ?? null,
      open: row?.open ?? 0,
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
  const rows = await doraFigures(sql, {
    workspaceId: owner.workspaceId,
    environmentKey: nameKey(query.environment),
    ...(query.app === undefined ? {} : { appKey: nameKey(query.app) }),
    ...(query.repository === undefined ? {} : { repositoryKey: nameKey(query.repository) }),
    since: since.micros,
    until: until.micros,
    bucket: unit,
  })
  if (!rows) {
    throw problems.notFound(
      'No such environment in your workspace: it appears once a deployment to it is recorded.',
    )
  }
  const byStart = new Map(rows.map((row) => [row.start, row]))
  const series: DoraMetrics['series'] = []
  const first = bucketOfDay(unit, dayOf(since.micros))
  const last = bucketOfDay(unit, dayOf(until.micros - 1n))
  for (let bucket = first; bucket <= last; bucket++) {
    const start = bucketStart(unit, bucket)
    const end = bucketStart(unit, bucket + 1)
    // The edge buckets count only their part inside the window.
    // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
    const from = start > since.micros ? start : since.micros
    // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.min does not take
    const to = end < until.micros ? end : until.micros
    const iso = instantFromMicros(start).iso
    series.push({ start: iso, ...figuresOf(byStart.get(iso), daysBetween(from, to)) })
  }
  return {
    environment: query.environment,
    since: since.iso,
    until: until.iso,
    ...figuresOf(byStart.get(null), daysBetween(since.micros, until.micros)),
    series,
  }
}
