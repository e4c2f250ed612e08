import { createSql, processApplicationName } from '@shiplog/db/client'
import {
  forgetOldDeliveries,
  vacuumDeliveries,
  waitingDeliveries,
} from '@shiplog/db/integrations/deliveries'
import { reportPoolConnections } from '@shiplog/db/pool-gauge'
import { analyzeStaleTables } from '@shiplog/db/queries/table-statistics'
import { DeploymentQueue } from '@shiplog/db/queue'
import { scrapeOf } from '@shiplog/ops-http'
import type { LogLine } from '@shiplog/ops-http/log'
import { QueueConsumer } from './consumer.ts'
import { createDoraGauges } from './dora-gauges.ts'
import type { WorkerEnv } from './env.ts'
import { IntegrationWork } from './integrations/deliveries-loop.ts'
import { createWorkerMetrics } from './metrics.ts'

const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000
// The inbox is emptied as fast as it fills: vacuumed this often, its freed pages take the next
// rows, so it stays a few pages long even where autovacuum is off or late. The tables it writes
// are analyzed at the same pace when their statistics fell behind (autovacuum off or late).
const INBOX_VACUUM_INTERVAL_MS = 30_000

/** The worker wired to Postgres: `main.ts` runs it, tests start and stop it in-process. */
export function createWorker(env: WorkerEnv, log: LogLine) {
  const applicationName = processApplicationName('shiplog-worker')
  const metrics = createWorkerMetrics()
  const health = { started: false, stopping: false, lastError: 0, lastSuccess: 0 }
  const sql = createSql(env.DATABASE_URL, {
    applicationName,
    maxConnections: env.WORKER_CONCURRENCY + 2,
    statementTimeoutMs: 30_000,
  })
  const queue = new DeploymentQueue(sql, {
    url: env.DATABASE_URL,
    role: 'worker',
    applicationName: 'shiplog-worker-queue',
    log,
  })
  const consumer = new QueueConsumer(
    queue,
    {
      batchSize: env.WORKER_BATCH_SIZE,
      concurrency: env.WORKER_CONCURRENCY,
      pollIntervalMs: env.WORKER_POLL_INTERVAL_MS,
    },
    {
      batch: ({ taken, recorded, failed, seconds }) => {
        health.lastSuccess = Date.now()
        metrics.batchSize.observe(taken)
        metrics.batchDuration.observe(seconds)
        metrics.recorded.inc(recorded)
        for (const { id, reason, final } of failed) {
          if (final) metrics.failed.inc()
          else metrics.retried.inc()
          const msg = final ? 'job dead-lettered' : 'job failed; will retry'
          log({ level: 'warn', msg, job: id, reason })
        }
      },
      error: (error) => {
        health.lastError = Date.now()
        metrics.rolledBack.inc()
        log({ level: 'error', msg: 'batch rolled back', error: String(error) })
      },
    },
  )
  const integrations = new IntegrationWork(sql, env.WORKER_POLL_INTERVAL_MS, log, (outcomes) => {
    for (const { source, state } of outcomes) metrics.deliveriesHandled.inc({ source, state })
  })
  const doraGauges = env.DORA_METRICS_ENABLED
    ? createDoraGauges(
        metrics.registry,
        sql,
        {
          intervalMs: env.DORA_METRICS_INTERVAL_SECONDS * 1000,
          topApplications: env.DORA_METRICS_PER_APPLICATION ? env.DORA_METRICS_TOP_APPLICATIONS : 0,
        },
        log,
      )
    : undefined
  let housekeeping: ReturnType<typeof setInterval> | undefined
  let inboxVacuum: ReturnType<typeof setInterval> | undefined

  async function refreshMetrics(): Promise<void> {
    metrics.queueDepth.reset()
    for (const { queue: store, state, count } of await queue.depth()) {
      metrics.queueDepth.set({ queue: store, state }, count)
    }
    metrics.oldestWaiting.set(await queue.oldestWaitingSeconds())
    const deliveries = await waitingDeliveries(sql)
    metrics.deliveriesWaiting.set(deliveries.count)
    metrics.oldestWaitingDelivery.set(deliveries.oldestSeconds)
    await reportPoolConnections(sql, applicationName, metrics.dbConnections)
  }

  return {
    sql,
    queue,
    consumer,
    integrations,
    metrics,
    /** The DORA gauges, when DORA_METRICS_ENABLED. */
    doraGauges,
    /** Undefined when ready to work; otherwise why not (for `/readyz`). */
    notReadyBecause(): string | undefined {
      if (health.stopping) return 'shutting down'
      if (!health.started) return 'queue not started'
      if (health.lastError > health.lastSuccess) return 'the last batch could not reach Postgres'
      return undefined
    },
    /** Prometheus text of the worker's metrics, gauges refreshed. */
    scrape: scrapeOf(metrics.registry, refreshMetrics),
    /** Starts the queue (retrying until Postgres is reachable), then the consumer. */
    async start(): Promise<void> {
      await queue.start()
      health.started = true
      consumer.start()
      integrations.start()
      doraGauges?.start()
      housekeeping = setInterval(() => {
        queue
          .forgetExpiredKeys()
          .catch((error) =>
            log({ level: 'warn', msg: 'idempotency cleanup failed', error: String(error) }),
          )
        forgetOldDeliveries(sql).catch((error) =>
          log({ level: 'warn', msg: 'deliveries cleanup failed', error: String(error) }),
        )
      }, HOUSEKEEPING_INTERVAL_MS)
      inboxVacuum = setInterval(() => {
        queue
          .vacuum()
          .catch((error) =>
            log({ level: 'warn', msg: 'inbox vacuum failed', error: String(error) }),
          )
        vacuumDeliveries(sql).catch((error) =>
          log({ level: 'warn', msg: 'deliveries vacuum failed', error: String(error) }),
        )
        analyzeStaleTables(sql)
          .then((tables) => {
            if (tables.length > 0) log({ level: 'info', msg: 'analyzed tables', tables })
          })
          .catch((error) => log({ level: 'warn', msg: 'analyze failed', error: String(error) }))
      }, INBOX_VACUUM_INTERVAL_MS)
    },
    /** Stops fetching, lets the batches in hand commit, and closes Postgres. */
    async stop(): Promise<void> {
      health.stopping = true
      clearInterval(housekeeping)
      clearInterval(inboxVacuum)
      await Promise.all([consumer.stop(), integrations.stop(), doraGauges?.stop()])
      await queue.stop()
      await sql.end({ timeout: 5 })
    },
  }
}
