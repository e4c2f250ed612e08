import { createSql } from '@shiplog/db/client'
import { deleteExpiredIdempotencyKeys } from '@shiplog/db/queries/idempotency-keys'
import { createBoss } from '@shiplog/db/queue'
import { QueueConsumer } from './consumer.ts'
import type { WorkerEnv } from './env.ts'

type Log = (line: Record<string, unknown>) => void

const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000

/** The worker wired to Postgres: `main.ts` runs it, tests start and stop it in-process. */
export function createWorker(env: WorkerEnv, log: Log) {
  const sql = createSql(env.DATABASE_URL, {
    applicationName: 'shiplog-worker',
    maxConnections: env.WORKER_CONCURRENCY + 2,
    statementTimeoutMs: 30_000,
  })
  const boss = createBoss(env.DATABASE_URL, 'worker', 'shiplog-worker-queue')
  boss.on('error', (error) => log({ level: 'error', msg: 'queue error', error: String(error) }))
  const consumer = new QueueConsumer(
    sql,
    boss,
    {
      batchSize: env.WORKER_BATCH_SIZE,
      concurrency: env.WORKER_CONCURRENCY,
      pollIntervalMs: env.WORKER_POLL_INTERVAL_MS,
    },
    {
      batch: ({ failed }) => {
        for (const { id, reason } of failed)
          log({ level: 'warn', msg: 'job failed', job: id, reason })
      },
      error: (error) => log({ level: 'error', msg: 'batch rolled back', error: String(error) }),
    },
  )
  let housekeeping: ReturnType<typeof setInterval> | undefined

  return {
    sql,
    boss,
    consumer,
    /** Starts pg-boss (retrying until Postgres is reachable), then the consumer. */
    async start(): Promise<void> {
      for (let attempt = 1; ; attempt++) {
        try {
          await boss.start()
          break
        } catch (error) {
          log({ level: 'warn', msg: 'queue not ready, retrying', attempt, error: String(error) })
          await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * attempt)))
        }
      }
      consumer.start()
      housekeeping = setInterval(() => {
        deleteExpiredIdempotencyKeys(sql).catch((error) =>
          log({ level: 'warn', msg: 'idempotency cleanup failed', error: String(error) }),
        )
      }, HOUSEKEEPING_INTERVAL_MS)
    },
    /** Stops fetching, lets the batches in hand commit, and closes Postgres. */
    async stop(): Promise<void> {
      clearInterval(housekeeping)
      await consumer.stop()
      await boss.stop({ graceful: false, close: true }).catch(() => {})
      await sql.end({ timeout: 5 })
    },
  }
}
