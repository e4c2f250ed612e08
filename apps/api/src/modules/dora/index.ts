import type { Sql } from '@shiplog/db/client'
import { Elysia } from 'elysia'
import { queryOf } from '../../lib/parameters.ts'
import type { auth } from '../../plugins/auth/index.ts'
import { requireScope } from '../../plugins/auth/scopes.ts'
import type { rateLimit } from '../../plugins/rate-limit/index.ts'
import type { ReadSlots } from '../../plugins/rate-limit/read-slots.ts'
import { doraMetricsOf } from './dora-service.ts'
import { DoraQuery, FrequencyQuery } from './model.ts'
import { deploymentFrequencyOf } from './service.ts'

/**
 * The DORA metrics under `/v1/metrics`: `GET /v1/metrics/deployment-frequency`, per application,
 * and `GET /v1/metrics/dora`, the five keys.
 * (Prometheus metrics are another thing: `plugins/prometheus`, on METRICS_PORT.)
 */
export function doraRoutes(deps: {
  /** The read pool: the replica at DATABASE_READ_URL, or the primary. */
  readSql: Sql
  reads: ReadSlots
  authenticated: ReturnType<typeof auth>
  limited: ReturnType<typeof rateLimit>
}) {
  return new Elysia({ prefix: '/v1/metrics' })
    .use(deps.authenticated)
    .use(deps.limited)
    .get('/deployment-frequency', ({ owner, request }) => {
      requireScope(owner, 'read')
      const query = queryOf(FrequencyQuery, request)
      return deps.reads.run(owner.keyId, () => deploymentFrequencyOf(deps.readSql, owner, query))
    })
    .get('/dora', ({ owner, request }) => {
      requireScope(owner, 'read')
      const query = queryOf(DoraQuery, request)
      return deps.reads.run(owner.keyId, () => doraMetricsOf(deps.readSql, owner, query))
    })
}
