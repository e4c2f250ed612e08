import type { Sql } from '@shiplog/db/client'
import { deploymentFrequency } from '@shiplog/db/queries/frequency'
import { type DeploymentFrequency, nameKey } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { parseQuery } from '../../lib/query.ts'
import type { auth } from '../../plugins/auth/index.ts'
import { problems } from '../../plugins/problem/index.ts'
import type { rateLimit } from '../../plugins/rate-limit/index.ts'
import { FrequencyQuery } from './model.ts'

const DAY_MS = 86_400_000
const DEFAULT_SPAN = { day: 30 * DAY_MS, week: 12 * 7 * DAY_MS }
// Bounded so one request cannot ask Postgres for a million buckets.
const MAX_BUCKETS = { day: 400, week: 260 }

/** `GET /v1/metrics/deployment-frequency`: DORA deployment frequency per application. */
export function frequencyRoutes(deps: {
  sql: Sql
  authenticated: ReturnType<typeof auth>
  limited: ReturnType<typeof rateLimit>
}) {
  return new Elysia({ prefix: '/v1/metrics' })
    .use(deps.authenticated)
    .use(deps.limited)
    .get('/deployment-frequency', async ({ owner, query }): Promise<DeploymentFrequency> => {
      const parsed = parseQuery(FrequencyQuery, query)
      const bucket = parsed.bucket ?? 'day'
      const until = parsed.until ?? new Date().toISOString()
      const since = parsed.since ?? new Date(Date.parse(until) - DEFAULT_SPAN[bucket]).toISOString()
      const span = Date.parse(until) - Date.parse(since)
      if (span <= 0) {
        throw problems.validation([{ field: 'since', message: 'must be before until' }])
      }
      const bucketMs = bucket === 'day' ? DAY_MS : 7 * DAY_MS
      if (span / bucketMs > MAX_BUCKETS[bucket]) {
        throw problems.validation([
          {
            field: 'since',
            message: `the window may hold at most ${MAX_BUCKETS[bucket]} ${bucket}s`,
          },
        ])
      }
      const counts = await deploymentFrequency(deps.sql, {
        workspaceId: owner.workspaceId,
        environmentKey: nameKey(parsed.environment.trim()),
        bucket,
        since,
        until,
      })
      return {
        environment: parsed.environment.trim(),
        bucket,
        since: counts.buckets[0] ?? since,
        until: new Date(Date.parse(until)).toISOString(),
        ...counts,
      }
    })
}
