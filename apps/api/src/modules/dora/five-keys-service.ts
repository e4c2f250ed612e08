import type { Sql } from '@shiplog/db/client'
import { doraMetrics } from '@shiplog/db/dora/metrics'
import { DAY_MICROS } from '@shiplog/db/dora/time-units'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { productionEnvironments } from '@shiplog/db/queries/catalog'
import { type DoraMetrics, type DoraQuery, nameKey } from '@shiplog/schema'
import { problems } from '../../kernel/problems.ts'
import { windowOf } from './request-window.ts'

const DEFAULT_SPAN = 12n * 7n * DAY_MICROS
// The keys read the environment's history up to `until`; the window bounds what is aggregated.
const MAX_SPAN = 400n * DAY_MICROS

/**
 * `GET /v1/metrics/dora`: the five keys of an environment, or of every production environment
 * together when none is named, over a window, and per bucket.
 */
export async function doraMetricsOf(
  sql: Sql,
  owner: Pick<KeyOwner, 'workspaceId'>,
  query: DoraQuery,
): Promise<DoraMetrics> {
  const { since, until } = windowOf(query, {
    defaultSpan: DEFAULT_SPAN,
    maxSpan: MAX_SPAN,
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
    ...(query.app === undefined ? {} : { appKey: nameKey(query.app) }),
    ...(query.repository === undefined ? {} : { repositoryKey: nameKey(query.repository) }),
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
