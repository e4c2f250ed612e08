import { POOL_GAUGE } from '@shiplog/db/pool-gauge'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** Everything the worker counts, in one Prometheus registry. */
export function createWorkerMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'shiplog_worker_' })
  const registers = [registry]
  return {
    registry,
    recorded: new Counter({
      name: 'shiplog_jobs_recorded_total',
      help: 'Deployment jobs recorded (completed).',
      registers,
    }),
    retried: new Counter({
      name: 'shiplog_jobs_retried_total',
      help: 'Deployment job attempts that failed and will be retried with backoff.',
      registers,
    }),
    failed: new Counter({
      name: 'shiplog_jobs_failed_total',
      help: 'Deployment jobs that failed their last attempt and went to the dead-letter queue.',
      registers,
    }),
    batchSize: new Histogram({
      name: 'shiplog_worker_batch_size',
      help: 'Jobs per fetched batch.',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers,
    }),
    batchDuration: new Histogram({
      name: 'shiplog_worker_batch_duration_seconds',
      help: 'Time to fetch, record and complete one batch (one transaction).',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    }),
    rolledBack: new Counter({
      name: 'shiplog_worker_batches_rolled_back_total',
      help: 'Batches whose transaction failed as a whole (e.g. a lost connection); they are fetched again.',
      registers,
    }),
    queueDepth: new Gauge({
      name: 'shiplog_queue_depth',
      help: 'Deployments waiting, by store and state: the inbox (queue "inbox"), the retries ("deployments") and the dead letters ("deployments-dead").',
      labelNames: ['queue', 'state'] as const,
      registers,
    }),
    oldestWaiting: new Gauge({
      name: 'shiplog_oldest_waiting_deployment_seconds',
      help: 'Seconds since the oldest deployment not yet recorded was received (inbox or retries); 0 when none waits.',
      registers,
    }),
    deliveriesWaiting: new Gauge({
      name: 'shiplog_integration_deliveries_waiting',
      help: 'Integration deliveries stored by a receiver and not handled by a worker yet.',
      registers,
    }),
    oldestWaitingDelivery: new Gauge({
      name: 'shiplog_oldest_waiting_delivery_seconds',
      help: 'Seconds since the oldest delivery still waiting for a worker was received; 0 when none waits.',
      registers,
    }),
    deliveriesHandled: new Counter({
      name: 'shiplog_integration_deliveries_handled_total',
      help: 'Integration deliveries a worker handled, by source and how they ended: recorded (a deployment, a push, an incident opened or resolved), ignored (the reason is on the delivery: an environment or application Shiplog has never seen, an event it does not read), received (kept waiting for another delivery).',
      labelNames: ['source', 'state'] as const,
      registers,
    }),
    dbConnections: new Gauge({ ...POOL_GAUGE, registers }),
  }
}

/** The worker's metrics. */
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>
