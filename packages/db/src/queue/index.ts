import type { Sql } from '../client.ts'
import type { DeploymentFilters } from '../queries/deployments.ts'
import {
  type AcceptedDeployment,
  acceptanceFailure,
  type CommitObserver,
  type EnqueueOutcome,
  QueueUnavailable,
} from './accepted.ts'
import { Batches, type BatchReport, type Recorder } from './batch.ts'
import { listDeadLetters, replayDeadLetters } from './dead-letters.ts'
import { countUnrecorded, oldestWaitingSeconds, queueDepth } from './depth.ts'
import {
  createEngine,
  type Engine,
  type QueueLog,
  type QueueRole,
  startEngine,
  stopEngine,
} from './engine.ts'
import { GroupCommit, type GroupCommitOptions } from './group-commit.ts'
import { deleteExpiredIdempotencyKeys } from './idempotency-keys.ts'
import { type StreamShare, vacuumInbox } from './inbox.ts'
import { InboxCommit } from './inbox-commit.ts'
import { listUnrecordedDeployments } from './listing.ts'
import { findQueueStatus } from './status.ts'
import { UnavailablePause } from './unavailable-pause.ts'

export { DeploymentJob } from '../deployment-job.ts'
export {
  type AcceptedDeployment,
  type CommitObserver,
  type CommitOutcome,
  CommitOutcomeUnknown,
  type EnqueueOutcome,
  QueueUnavailable,
} from './accepted.ts'
export type { BatchOutcome, BatchReport, Recorder, TakenJob } from './batch.ts'
export type { DeadLetter } from './dead-letters.ts'
export type { StoreDepth } from './depth.ts'
export { DEFAULT_RETRY_POLICY, type QueueLog, type QueueRole, type RetryPolicy } from './engine.ts'
export { GroupCommit, type GroupCommitOptions } from './group-commit.ts'
export { fingerprintOf } from './idempotency.ts'
export { insertIntoInbox, type StreamShare } from './inbox.ts'

/** How a process opens the queue. */
export interface QueueOptions {
  /** The Postgres URL the engine connects with (its own small pool). */
  url: string
  role: QueueRole
  /** What the engine's connections are called in `pg_stat_activity`. */
  applicationName: string
  /** Where the engine's background errors go: one structured line each. */
  log: QueueLog
  /** For a process that accepts deployments (the API): how requests share commits. */
  acceptance?: { options: GroupCommitOptions; observe: CommitObserver }
}

/**
 * The deployment queue: every store a queued deployment lives in (the inbox table for its first
 * attempt; the engine's retries and dead letters) behind one object. The API accepts deployments,
 * reads their receipts and lists them; the worker takes batches and reads the depth; the CLI
 * lists and replays dead letters. Nothing outside this folder touches the engine or the queue's
 * tables.
 */
export class DeploymentQueue {
  private readonly engine: Engine
  private readonly batches: Batches
  // Accepting (the API): requests share commits, and an outage turns them away for a moment.
  private readonly pause = new UnavailablePause()
  private readonly inbox: InboxCommit | undefined
  private readonly group: GroupCommit<AcceptedDeployment, EnqueueOutcome> | undefined

  constructor(
    private readonly sql: Sql,
    private readonly options: QueueOptions,
  ) {
    this.engine = createEngine(options.url, options.role, options.applicationName)
    this.engine.on('error', (error) =>
      options.log({ level: 'error', msg: 'queue error', error: String(error) }),
    )
    const { acceptance } = options
    const inbox = acceptance && new InboxCommit(sql, this.engine, this.pause, acceptance.observe)
    this.inbox = inbox
    this.group =
      inbox && new GroupCommit((items) => inbox.commitOrVerify(items), acceptance.options)
    this.batches = new Batches(sql, this.engine)
  }

  /**
   * Starts the engine, retrying while Postgres is unreachable or not yet migrated; false when
   * `cancelled()` turned true first (shutdown).
   */
  start(cancelled?: () => boolean): Promise<boolean> {
    return startEngine(this.engine, this.options.log, cancelled)
  }

  /** Lets every accepted request get its answer, then stops the engine and closes its pool. */
  async stop(): Promise<void> {
    await this.group?.whenIdle()
    await this.inbox?.whenIdle()
    await stopEngine(this.engine, this.options.log)
  }

  /**
   * Resolves once the deployment is durably queued (or recognised as a repeat): with group
   * commit, requests that arrive together share one commit, and each answer waits for it.
   * Rejects with `QueueUnavailable` when Postgres failed the commit (at once while paused after an
   * outage), or `CommitOutcomeUnknown`; any other error is a bug.
   */
  accept(item: AcceptedDeployment): Promise<EnqueueOutcome> {
    if (!this.group) throw new Error('this queue was opened without acceptance options')
    if (this.pause.active) return Promise.reject(new QueueUnavailable())
    return this.group.submit(item).catch((error) => {
      throw acceptanceFailure(error)
    })
  }

  /** Requests waiting for a commit, and commits running. */
  get acceptanceDepth(): { waiting: number; inFlight: number } {
    return this.group?.depth ?? { waiting: 0, inFlight: 0 }
  }

  /** A deployment not recorded yet, as its receipt (queued, or failed with why), if queued. */
  status(workspaceId: string, id: string) {
    return findQueueStatus(this.sql, this.engine, workspaceId, id)
  }

  /** A page of the workspace's queued or failed deployments, as receipts, newest first. */
  list(filters: DeploymentFilters & { status: 'queued' | 'failed' }) {
    return listUnrecordedDeployments(this.sql, filters)
  }

  /** Takes, records (with `record`) and settles one batch in one transaction. */
  work(
    size: number,
    share: StreamShare | undefined,
    record: Recorder,
  ): Promise<BatchReport | undefined> {
    return this.batches.next(size, share, record)
  }

  /** What waits in each store, for the gauges. */
  depth() {
    return queueDepth(this.sql, this.engine)
  }

  /** Seconds the oldest deployment not yet recorded has waited; 0 when none waits. */
  oldestWaitingSeconds() {
    return oldestWaitingSeconds(this.sql)
  }

  /** Exactly how many deployments wait to be recorded, by store; `{}` once drained. */
  unrecorded() {
    return countUnrecorded(this.sql)
  }

  /**
   * Vacuums the inbox, so the pages its taken rows leave are reused (skipped when another vacuum
   * holds it); the worker runs it every few seconds, as the inbox empties as fast as it fills.
   */
  vacuum(): Promise<void> {
    return vacuumInbox(this.sql)
  }

  /** Forgets Idempotency-Keys past their 24 hours; resolves with how many. */
  forgetExpiredKeys(): Promise<number> {
    return deleteExpiredIdempotencyKeys(this.sql)
  }

  /** Deployments that failed every attempt. */
  deadLetters() {
    return listDeadLetters(this.engine)
  }

  /** Sends dead letters (by their ids, or all) back for another round of attempts. */
  replay(ids: string[] | 'all') {
    return replayDeadLetters(this.engine, ids)
  }
}
