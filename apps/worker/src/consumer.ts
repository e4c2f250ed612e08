import type { Sql, Tx } from '@shiplog/db/client'
import { type StreamShare, takeFromInbox } from '@shiplog/db/queries/deployment-inbox'
import { type PgBoss, viaPostgresJs } from '@shiplog/db/queue'
import { InboxCursor } from './inbox-cursor.ts'
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
 * Drains the inbox, and pg-boss's queue of deployments being retried. Each batch is one Postgres
 * transaction: take (which deletes inbox rows and locks jobs), record, complete or fail. A crash
 * or cut connection anywhere rolls all of it back and the deployments are taken again, so every
 * one is recorded exactly once. A deployment from the inbox that fails moves to pg-boss, in the
 * same transaction, to be retried with backoff and dead-lettered after its last attempt.
 */
export class QueueConsumer {
  private stopping = false
  private loops: Promise<void>[] = []
  private wake: (() => void)[] = []
  // One per loop: each walks the inbox for its own share of the streams.
  private readonly cursors = new Map<number, InboxCursor>()

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
    const of = this.options.concurrency
    for (let index = 0; index < of; index++) this.loops.push(this.loop({ index, of }))
  }

  /** Stops fetching and resolves once every batch in hand has committed or rolled back. */
  async stop(): Promise<void> {
    this.stopping = true
    for (const wake of this.wake.splice(0)) wake()
    await Promise.all(this.loops)
  }

  /**
   * Processes one batch now, of the streams of `share` (all of them when absent); resolves with
   * how many deployments it took.
   */
  async runOnce(share?: StreamShare): Promise<number> {
    const startedAt = performance.now()
    const key = share?.index ?? -1
    const cursor = this.cursors.get(key) ?? new InboxCursor()
    this.cursors.set(key, cursor)
    let report: Awaited<ReturnType<typeof this.record>>
    try {
      report = await this.sql.begin((tx) => this.record(tx, cursor, share))
    } catch (error) {
      // Rows this batch took are back in the inbox, behind the cursor.
      cursor.rewind()
      throw error
    }
    // Reported once committed: a batch that rolled back recorded nothing.
    if (!report) return 0
    this.events.batch({ ...report, seconds: (performance.now() - startedAt) / 1000 })
    return report.fetched
  }

  private async record(tx: Tx, cursor: InboxCursor, share: StreamShare | undefined) {
    // The commit need not wait for its WAL to reach disk: the batch moves deployments out of the
    // inbox, which is durable, in this one transaction, so a crash before the flush undoes all
    // of it (they are back in the inbox, taken again), and any transaction that commits
    // synchronously after reading them flushes this one's WAL too. Waiting made each batch pay
    // for the full pages it logged after a checkpoint (docs/scaling.md).
    await tx`set local synchronous_commit = off`
    const db = viaPostgresJs(tx)
    const taken = await takeFromInbox(tx, this.options.batchSize, cursor.start(), share)
    cursor.advance(taken.map((job) => job.id))
    const fromInbox: FetchedJob[] = taken.map((data) => ({
      id: data.id,
      retryCount: 0,
      retryLimit: 1,
      data,
      inbox: true,
    }))
    // At least one retry per batch, so retries are not starved behind a long backlog.
    const retries = (await this.boss.fetch(QUEUE, {
      batchSize: Math.max(1, this.options.batchSize - taken.length),
      includeMetadata: true,
      db,
    })) as FetchedJob[]
    const jobs = [...fromInbox, ...retries]
    if (jobs.length === 0) return undefined
    const { recorded, failed } = await handleDeployments(tx, jobs)
    const claim = (job: FetchedJob) => ({ id: job.id, retryCount: job.retryCount })
    const completed = recorded.filter((job) => !job.inbox)
    if (completed.length > 0) await this.boss.complete(QUEUE, completed.map(claim), null, { db })
    const movedToRetry = failed.filter(({ job }) => job.inbox).map(({ job }) => job)
    if (movedToRetry.length > 0) {
      await this.boss.insert(
        QUEUE,
        movedToRetry.map((job) => ({ id: job.id, data: job.data as object })),
        { db },
      )
    }
    for (const { job, reason } of failed) {
      if (!job.inbox) await this.boss.fail(QUEUE, [claim(job)], { message: reason }, { db })
    }
    return {
      fetched: jobs.length,
      recorded: recorded.length,
      failed: failed.map(({ job, reason }) => ({
        id: job.id,
        reason,
        final: !job.inbox && job.retryCount >= job.retryLimit,
      })),
    }
  }

  private async loop(share: StreamShare): Promise<void> {
    let consecutiveErrors = 0
    while (!this.stopping) {
      try {
        const fetched = await this.runOnce(share)
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
