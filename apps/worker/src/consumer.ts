import type { Sql } from '@shiplog/db/client'
import { type PgBoss, viaPostgresJs } from '@shiplog/db/queue'
import { type FetchedJob, handleDeployments, QUEUE } from './jobs/deployments.ts'

/** How the consumer polls. */
export interface ConsumerOptions {
  batchSize: number
  concurrency: number
  pollIntervalMs: number
}

/** What a consumer reports as it works (logs, metrics, tests). */
export interface ConsumerEvents {
  batch(outcome: {
    fetched: number
    recorded: number
    /** `final`: the job's last attempt; it goes to the dead-letter queue. */
    failed: { id: string; reason: string; final: boolean }[]
    seconds: number
  }): void
  error(error: unknown): void
}

/**
 * Drains the deployments queue. Each batch is one Postgres transaction: fetch (which locks the
 * jobs), record, complete or fail. A crash or cut connection anywhere rolls all of it back and the
 * jobs are fetched again, so every job is recorded exactly once.
 */
export class QueueConsumer {
  private stopping = false
  private loops: Promise<void>[] = []
  private wake: (() => void)[] = []

  constructor(
    private readonly sql: Sql,
    private readonly boss: PgBoss,
    private readonly options: ConsumerOptions,
    private readonly events: ConsumerEvents,
  ) {}

  /** Starts the polling loops (again, after a stop). */
  start(): void {
    this.stopping = false
    this.loops = []
    for (let index = 0; index < this.options.concurrency; index++) this.loops.push(this.loop())
  }

  /** Stops fetching and resolves once every batch in hand has committed or rolled back. */
  async stop(): Promise<void> {
    this.stopping = true
    for (const wake of this.wake.splice(0)) wake()
    await Promise.all(this.loops)
  }

  /** Processes one batch now; resolves with how many jobs it fetched. */
  async runOnce(): Promise<number> {
    const startedAt = performance.now()
    const report = await this.sql.begin(async (tx) => {
      const db = viaPostgresJs(tx)
      const jobs = (await this.boss.fetch(QUEUE, {
        batchSize: this.options.batchSize,
        includeMetadata: true,
        db,
      })) as FetchedJob[]
      if (jobs.length === 0) return undefined
      const { recorded, failed } = await handleDeployments(tx, jobs)
      const claim = (job: FetchedJob) => ({ id: job.id, retryCount: job.retryCount })
      if (recorded.length > 0) await this.boss.complete(QUEUE, recorded.map(claim), null, { db })
      for (const { job, reason } of failed) {
        await this.boss.fail(QUEUE, [claim(job)], { message: reason }, { db })
      }
      return {
        fetched: jobs.length,
        recorded: recorded.length,
        failed: failed.map(({ job, reason }) => ({
          id: job.id,
          reason,
          final: job.retryCount >= job.retryLimit,
        })),
      }
    })
    // Reported once committed: a batch that rolled back recorded nothing.
    if (!report) return 0
    this.events.batch({ ...report, seconds: (performance.now() - startedAt) / 1000 })
    return report.fetched
  }

  private async loop(): Promise<void> {
    let consecutiveErrors = 0
    while (!this.stopping) {
      try {
        const fetched = await this.runOnce()
        consecutiveErrors = 0
        if (fetched < this.options.batchSize) await this.pause(this.options.pollIntervalMs)
      } catch (error) {
        consecutiveErrors++
        this.events.error(error)
        await this.pause(Math.min(10_000, 100 * 2 ** consecutiveErrors))
      }
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.wake.push(done)
    })
  }
}
