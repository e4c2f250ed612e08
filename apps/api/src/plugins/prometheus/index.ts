import { Elysia } from 'elysia'
import { sentStatus } from '../response-status/index.ts'
import type { ApiMetrics } from './registry.ts'

export { type ApiMetrics, createApiMetrics } from './registry.ts'

const startedAt = new WeakMap<Request, number>()

/**
 * Counts every request for Prometheus by method, route pattern (never the raw path: ids would
 * explode the label set) and the status actually sent, and times it. The registry is served on
 * the separate METRICS_PORT listener (`lifecycle.ts`), never by this app.
 */
export function prometheus(registry: ApiMetrics) {
  return new Elysia({ name: 'prometheus' })
    .onRequest(({ request }) => {
      startedAt.set(request, performance.now())
    })
    .onAfterResponse({ as: 'global' }, ({ request, route, set, responseValue }) => {
      const started = startedAt.get(request)
      const labels = { method: request.method, route: route || 'unmatched' }
      registry.requests.inc({
        ...labels,
        status: String(sentStatus({ request, set, responseValue })),
      })
      if (started !== undefined)
        registry.duration.observe(labels, (performance.now() - started) / 1000)
    })
}
