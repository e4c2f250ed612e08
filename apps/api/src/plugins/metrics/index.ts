import { Elysia } from 'elysia'
import type { ApiMetrics } from './registry.ts'

export { type ApiMetrics, createApiMetrics } from './registry.ts'

const startedAt = new WeakMap<Request, number>()

function statusOf(responseValue: unknown, status: unknown): number {
  if (responseValue instanceof Response) return responseValue.status
  return typeof status === 'number' ? status : 200
}

/**
 * Counts every request by method, route pattern (never the raw path: ids would explode the label
 * set) and status, times it, and serves the registry at `GET /metrics` in Prometheus text format.
 * `refresh` updates gauges that are read rather than counted, just before each scrape.
 */
export function metrics(registry: ApiMetrics, refresh: () => Promise<void>) {
  return new Elysia({ name: 'metrics' })
    .onRequest(({ request }) => {
      startedAt.set(request, performance.now())
    })
    .onAfterResponse({ as: 'global' }, ({ request, route, set, responseValue }) => {
      const started = startedAt.get(request)
      const labels = { method: request.method, route: route || 'unmatched' }
      registry.requests.inc({ ...labels, status: String(statusOf(responseValue, set.status)) })
      if (started !== undefined)
        registry.duration.observe(labels, (performance.now() - started) / 1000)
    })
    .get('/metrics', async ({ set }) => {
      await refresh()
      set.headers['content-type'] = registry.registry.contentType
      return registry.registry.metrics()
    })
}
