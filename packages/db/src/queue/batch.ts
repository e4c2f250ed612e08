import type { Sql, Tx } from '../client.ts'
import { type Engine, RETRIES, viaPostgresJs } from './engine.ts'
import { type StreamShare, takeFromInbox } from './inbox.ts'
import { InboxCursor } from './inbox-cursor.ts'

/** A queued deployment taken for an attempt: from the inbox (its first) or from the retries. */
export interface TakenJob {
  id: string
  retryCount: number
  retryLimit: number
  /** The payload as stored; the recorder checks it against `DeploymentJob`. */
  data: unknown
  /** Taken from the inbox (its first attempt), not a retry. */
  inbox?: boolean
}

/** What the recorder made of a batch: which jobs are recorded and which failed, and why. */
export interface BatchOutcome {
  recorded: TakenJob[]
  failed: { job: TakenJob; reason: string }[]
}

/** A committed batch: how many were taken and recorded, and each failure (final: dead-lettered). */
export interface BatchReport {
  taken: number
  recorded: number
  failed: { id: string; reason: string; final: boolean }[]
}

/** Records a batch inside the queue's transaction, and says what became of each job. */
export type Recorder = (tx: Tx, jobs: TakenJob[]) => Promise<BatchOutcome>

/**
 * The worker's side of the queue. Each batch is one Postgres transaction: take (which deletes
 * inbox rows and locks retries), record, then complete, retry or fail. A crash or cut connection
 * anywhere rolls all of it back and the deployments are taken again, so every one is recorded
 * exactly once. A deployment from the inbox that fails moves to the retries in the same
 * transaction, to be tried again with backoff and dead-lettered after its last attempt.
 */
export class Batches {
  // One per share: each loop of a worker walks the inbox for its own share of the streams.
  private readonly cursors = new Map<number, InboxCursor>()

  constructor(
    private readonly sql: Sql,
    private readonly engine: Engine,
  ) {}

  /**
   * Takes up to `size` deployments of the streams of `share` (all of them when absent), records
   * them with `record` and settles each, in one transaction; undefined when there was nothing.
   */
  async next(
    size: number,
    share: StreamShare | undefined,
    record: Recorder,
  ): Promise<BatchReport | undefined> {
    const key = share?.index ?? -1
    const cursor = this.cursors.get(key) ?? new InboxCursor()
    this.cursors.set(key, cursor)
    try {
      return await this.sql.begin((tx) => this.take(tx, size, cursor, share, record))
    } catch (error) {
      // Rows this batch took are back in the inbox, behind the cursor.
      cursor.rewind()
      throw error
    }
  }

  private async take(
    tx: Tx,
    size: number,
    cursor: InboxCursor,
    share: StreamShare | undefined,
    record: Recorder,
  ): Promise<BatchReport | undefined> {
    // The commit need not wait for its WAL to reach disk: the batch moves deployments out of the
    // inbox, which is durable, in this one transaction, so a crash before the flush undoes all
    // of it (they are back in the inbox, taken again), and any transaction that commits
    // synchronously after reading them flushes this one's WAL too. Waiting made each batch pay
    // for the full pages it logged after a checkpoint (docs/scaling.md).
    await tx`set local synchronous_commit = off`
    const db = viaPostgresJs(tx)
    const taken = await takeFromInbox(tx, size, cursor.start(), share)
    cursor.advance(taken.map((job) => job.id))
    const fromInbox: TakenJob[] = taken.map((data) => ({
      id: data.id,
      retryCount: 0,
      retryLimit: 1,
      data,
      inbox: true,
    }))
    // At least one retry per batch, so retries are not starved behind a long backlog.
    const retries = (await this.engine.fetch(RETRIES, {
      batchSize: Math.max(1, size - taken.length),
      includeMetadata: true,
      db,
    })) as TakenJob[]
    const jobs = [...fromInbox, ...retries]
    if (jobs.length === 0) return undefined
    const { recorded, failed } = await record(tx, jobs)
    const claim = (job: TakenJob) => ({ id: job.id, retryCount: job.retryCount })
    const completed = recorded.filter((job) => !job.inbox)
    if (completed.length > 0)
      await this.engine.complete(RETRIES, completed.map(claim), null, { db })
    const movedToRetry = failed.filter(({ job }) => job.inbox).map(({ job }) => job)
    if (movedToRetry.length > 0) {
      await this.engine.insert(
        RETRIES,
        movedToRetry.map((job) => ({ id: job.id, data: job.data as object })),
        { db },
      )
    }
    for (const { job, reason } of failed) {
      if (!job.inbox) await this.engine.fail(RETRIES, [claim(job)], { message: reason }, { db })
    }
    return {
      taken: jobs.length,
      recorded: recorded.length,
      failed: failed.map(({ job, reason }) => ({
        id: job.id,
        reason,
        final: !job.inbox && job.retryCount >= job.retryLimit,
      })),
    }
  }
}
