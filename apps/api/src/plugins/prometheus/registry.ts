import { POOL_GAUGE } from '@shiplog/db/pool-gauge'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** Everything the API counts, in one Prometheus registry. */
export function createApiMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'shiplog_api_' })
  const registers = [registry]
  return {
    registry,
    requests: new Counter({
      name: 'shiplog_http_requests_total',
      help: 'HTTP requests answered, by method, route and status.',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    duration: new Histogram({
      name: 'shiplog_http_request_duration_seconds',
      help: 'Time from request to response, by method and route.',
      labelNames: ['method', 'route'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    }),
    rateLimited: new Counter({
      name: 'shiplog_rate_limited_total',
      help: 'Requests answered 429, by which limit: a key quota or an address without a valid key.',
      labelNames: ['limit'] as const,
      registers,
    }),
    enqueueBatchSize: new Histogram({
      name: 'shiplog_enqueue_batch_size',
      help: 'Requests per queue commit (group commit).',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers,
    }),
    enqueueCommits: new Counter({
      name: 'shiplog_enqueue_commits_total',
      help: 'Queue commits by outcome: ok, failed (503), confirmed (failed but had happened), unknown.',
      labelNames: ['outcome'] as const,
      registers,
    }),
    enqueueWaiting: new Gauge({
      name: 'shiplog_enqueue_waiting_requests',
      help: 'Accepted requests waiting for a queue commit.',
      registers,
    }),
    integrationRefusals: new Counter({
      name: 'shiplog_integration_deliveries_refused_total',
      help: 'Integration deliveries a receiver refused, by source and reason: bad_proof (a forged or misconfigured secret), rate_limited, body_too_large, not_json, no_event, not_an_event.',
      labelNames: ['source', 'reason'] as const,
      registers,
    }),
    dbConnections: new Gauge({ ...POOL_GAUGE, registers }),
    dbReadConnections: new Gauge({
      name: 'shiplog_db_read_connections',
      help: "This process's connections to the read replica (DATABASE_READ_URL) by state; none without one.",
      labelNames: ['state'] as const,
      registers,
    }),
  }
}

/** The API's metrics, as handed to the parts that count. */
export type ApiMetrics = ReturnType<typeof createApiMetrics>
