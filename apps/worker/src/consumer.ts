import type { BatchReport, DeploymentQueue, StreamShare } from '@shiplog/db/queue'
import { recordJobs } from './jobs/deployments.ts'

/** How the consumer polls. */
export interface ConsumerOptions {
  batchSize: number
  concurrency: number
  pollIntervalMs: number
}

/** What a consumer reports as it works (logs, metrics, tests). */
export interface ConsumerEvents {
  /** A batch committed; `failed[].final`: the deployment's last attempt, now a dead letter. */
  batch(outcome: BatchReport & { seconds: number }): void
  error(error: unknown): void
}

/**
 * Drains the queue: `concurrency` loops, each taking batches of its own share of the streams
 * (application and environment), so that two loops never wait on the same read-model rows. A
 * loop polls again at once while batches come back full, waits `pollIntervalMs` when the queue
 * ran dry, and backs off after a batch that rolled back (it is taken again).
 */
export class QueueConsumer {
  private stopping = false
  private loops: Promise<void>[] = []
  private wake: (() => void)[] = []

  constructor(
    private readonly queue: DeploymentQueue,
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
    const report = await this.queue.work(this.options.batchSize, share, recordJobs)
    // Reported once committed: a batch that rolled back recorded nothing.
    if (!report) return 0
    this.events.batch({ ...report, seconds: (performance.now() - startedAt) / 1000 })
    return report.taken
  }

  private async loop(share: StreamShare): Promise<void> {
    let consecutiveErrors = 0
    while (!this.stopping) {
      try {
        const taken = await this.runOnce(share)
        consecutiveErrors = 0
        if (taken < this.options.batchSize) await this.pause(this.options.pollIntervalMs)
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
