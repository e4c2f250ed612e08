import type { Sql } from '@shiplog/db/client'
import { deploymentFrequency } from '@shiplog/db/dora/deployment-frequency'
import { doraMetrics } from '@shiplog/db/dora/five-keys'
import { BUCKET_MICROS, DAY_MICROS } from '@shiplog/db/dora/time-units'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { productionEnvironments } from '@shiplog/db/queries/catalog'
import {
  type DeploymentFrequency,
  type DoraMetrics,
  type DoraQuery,
  EARLIEST_MICROS,
  type FrequencyQuery,
  type Instant,
  instantFromDate,
  instantFromMicros,
  nameKey,
} from '@shiplog/schema'
import { problems } from '../../kernel/problems.ts'

const DORA_SPAN = { default: 12n * 7n * DAY_MICROS, max: 400n * DAY_MICROS }
const FREQUENCY_SPAN = { day: 30n * DAY_MICROS, week: 12n * 7n * DAY_MICROS }
// Bounded so one request cannot ask Postgres for a million buckets.
const FREQUENCY_BUCKETS = { day: 400n, week: 260n }

/**
 * `GET /v1/metrics/dora`: the five keys of an environment, or of every production environment
 * together when none is named, over a window, and per bucket. The keys read the environment's
 * history up to `until`; the window (at most 400 days) bounds what is aggregated.
 */
export async function doraMetricsOf(
  sql: Sql,
  owner: Pick<KeyOwner, 'workspaceId'>,
  query: DoraQuery,
): Promise<DoraMetrics> {
  const { since, until } = windowOf(query, {
    defaultSpan: DORA_SPAN.default,
    maxSpan: DORA_SPAN.max,
    tooLong: 'the window may hold at most 400 days: move since closer to until',
  })
  const environments =
    query.environment === undefined
      ? await productionEnvironments(sql, owner.workspaceId)
      : [query.environment]
  if (environments.length === 0) {
    throw problems.notFound(
      'No production environment in your workspace: name one with environment=, or mark one as production (PUT /v1/environments/{name}).',
    )
  }
  const metrics = await doraMetrics(sql, {
    workspaceId: owner.workspaceId,
    environmentKeys: environments.map(nameKey),
    appKey: query.app === undefined ? undefined : nameKey(query.app),
    repositoryKey: query.repository === undefined ? undefined : nameKey(query.repository),
    since: since.micros,
    until: until.micros,
    bucket: query.bucket ?? 'week',
  })
  if (!metrics) {
    throw problems.notFound(
      'No such environment in your workspace: it appears once a deployment to it is recorded.',
    )
  }
  if (query.environment !== undefined) return { environment: query.environment, ...metrics }
  return { environment: environments.join(', '), environments, ...metrics }
}

/** `GET /v1/metrics/deployment-frequency`: one environment, per application, over a bounded window. */
export async function deploymentFrequencyOf(
  sql: Sql,
  owner: KeyOwner,
  query: FrequencyQuery,
): Promise<DeploymentFrequency> {
  const bucket = query.bucket ?? 'day'
  const { since, until } = windowOf(query, {
    defaultSpan: FREQUENCY_SPAN[bucket],
    maxSpan: FREQUENCY_BUCKETS[bucket] * BUCKET_MICROS[bucket],
    tooLong: `the window may hold at most ${FREQUENCY_BUCKETS[bucket]} ${bucket}s: move since closer to until${bucket === 'day' ? ', or use bucket=week' : ''}`,
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

/** The longest window the five keys take; the DORA page's comparison keeps to it too. */
export const MAX_DORA_SPAN = DORA_SPAN.max

/**
 * The window [since, until) of a metrics request: `until` defaults to now and `since` to
 * `defaultSpan` before it (never before year 1); a 422 when since is not before until, or the
 * window is longer than `maxSpan` (`tooLong` says what to do then).
 */
function windowOf(
  query: { since?: Instant; until?: Instant },
  limits: { defaultSpan: bigint; maxSpan: bigint; tooLong: string },
): { since: Instant; until: Instant } {
  const until = query.until ?? instantFromDate(new Date())
  const defaultStart = until.micros - limits.defaultSpan
  // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
  const defaultSince = defaultStart > EARLIEST_MICROS ? defaultStart : EARLIEST_MICROS
  const since = query.since ?? instantFromMicros(defaultSince)
  if (since.micros >= until.micros) {
    throw problems.validation([
      { field: 'since', message: 'must be before until (since is inclusive, until exclusive)' },
    ])
  }
  if (until.micros - since.micros > limits.maxSpan) {
    throw problems.validation([{ field: 'since', message: limits.tooLong }])
  }
  return { since, until }
}
