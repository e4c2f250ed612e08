import type { Sql } from '@shiplog/db/client'
import { deploymentFrequency } from '@shiplog/db/dora/deployment-frequency'
import { BUCKET_MICROS, DAY_MICROS } from '@shiplog/db/dora/time-units'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { type DeploymentFrequency, type FrequencyQuery, nameKey } from '@shiplog/schema'
import { windowOf } from './request-window.ts'

const DEFAULT_SPAN = { day: 30n * DAY_MICROS, week: 12n * 7n * DAY_MICROS }
// Bounded so one request cannot ask Postgres for a million buckets.
const MAX_BUCKETS = { day: 400n, week: 260n }

/** `GET /v1/metrics/deployment-frequency`: one environment, per application, over a bounded window. */
export async function deploymentFrequencyOf(
  sql: Sql,
  owner: KeyOwner,
  query: FrequencyQuery,
): Promise<DeploymentFrequency> {
  const bucket = query.bucket ?? 'day'
  const { since, until } = windowOf(query, {
    defaultSpan: DEFAULT_SPAN[bucket],
    maxSpan: MAX_BUCKETS[bucket] * BUCKET_MICROS[bucket],
    tooLong: `the window may hold at most ${MAX_BUCKETS[bucket]} ${bucket}s: move since closer to until${bucket === 'day' ? ', or use bucket=week' : ''}`,
  })
  const counts = await deploymentFrequency(sql, {
    workspaceId: owner.workspaceId,
    environmentKey: nameKey(query.environment),
    bucket,
    since: since.micros,
    until: until.micros,
  })
  return {
    environment: query.environment,
    bucket,
    since: counts.buckets[0] ?? since.iso,
    until: until.iso,
    ...counts,
  }
}
