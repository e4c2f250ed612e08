import type { Sql, Tx } from '../client.ts'
import { isDatabaseUnavailable, isPostgresError, neverReachedDatabase } from '../errors.ts'
import { uuidv7 } from '../uuidv7.ts'
import {
  type AcceptedDeployment,
  CommitOutcomeUnknown,
  type EnqueueOutcome,
  QueueUnavailable,
} from './accepted.ts'
import { CommitCheck } from './commit-check.ts'
import type { Engine } from './engine.ts'
import { GroupCommit, type GroupCommitOptions } from './group-commit.ts'
import { claimKeys } from './idempotency.ts'
import { insertIntoInbox } from './inbox.ts'
import type { DeploymentJob } from './job.ts'
import { UnavailablePause } from './unavailable-pause.ts'

/**
 * How a queue commit ended: ok; failed (its requests got 503); confirmed (it failed but had
 * happened, so 202); unknown (Postgres could not be asked, so 503 outcome-unknown).
 */
export type CommitOutcome = 'ok' | 'failed' | 'confirmed' | 'unknown'

/** Told about every commit (for logs and metrics); `error` is set unless the outcome is ok. */
export type CommitObserver = (batchSize: number, outcome: CommitOutcome, error?: unknown) => void

/** What a commit got as far as, so a failure can be checked against what reached Postgres. */
interface CommitAttempt {
  insertedIds: string[]
  outcomes: EnqueueOutcome[] | undefined
}

// Postgres unreachable, or refusing the commit (a timeout, a full disk, a trigger): the client is
// told to retry. An exception of our own code stays what it is, a bug, answered 500.
function asEnqueueFailure(error: unknown): unknown {
  if (isDatabaseUnavailable(error) || isPostgresError(error)) return new QueueUnavailable(error)
  return error
}

/** The queue payload of an accepted deployment: what the worker records, as it will store it. */
const jobOf = (item: AcceptedDeployment, id: string): DeploymentJob => ({
  id,
  workspaceId: item.workspaceId,
  receivedAt: item.receivedAt.toISOString(),
  deployment: item.fields,
})

/**
 * Puts accepted deployments in the inbox (`deployment_inbox`) with group commit: requests that
 * arrive together share one transaction holding their Idempotency-Key claims and their rows. A
 * caller's promise resolves only after that transaction committed; if it fails, every caller in
 * it is rejected.
 */
export class Acceptance {
  private readonly group: GroupCommit<AcceptedDeployment, EnqueueOutcome>
  private readonly pause = new UnavailablePause()
  private readonly check: CommitCheck

  constructor(
    private readonly sql: Sql,
    engine: Engine,
    options: GroupCommitOptions,
    private readonly observe: CommitObserver,
  ) {
    this.group = new GroupCommit((items) => this.commitOrVerify(items), options)
    this.check = new CommitCheck(sql, engine)
  }

  /**
   * Resolves once the deployment is durably queued (or recognised as a repeat). Rejects with
   * `QueueUnavailable` when Postgres failed the commit, at once while paused after an outage, or
   * with `CommitOutcomeUnknown`; any other error is a bug.
   */
  accept(item: AcceptedDeployment): Promise<EnqueueOutcome> {
    if (this.pause.active) return Promise.reject(new QueueUnavailable())
    return this.group.submit(item).catch((error) => {
      throw asEnqueueFailure(error)
    })
  }

  /** Resolves when every accepted request has its answer (for shutdown). */
  async whenIdle(): Promise<void> {
    await this.group.whenIdle()
    await this.check.whenIdle()
  }

  /** Requests waiting for a commit and commits in flight. */
  get depth() {
    return this.group.depth
  }

  /**
   * Commits a batch. When the commit fails it may still have happened, so before anyone is told
   * 503 it is checked (`commit-check.ts`). The check happens outside the commit slot, so requests
   * behind this batch are not held up: if Postgres is down they find out at once and answer 503.
   */
  private async commitOrVerify(
    items: AcceptedDeployment[],
  ): Promise<(EnqueueOutcome | Promise<EnqueueOutcome>)[]> {
    const attempt: CommitAttempt = { insertedIds: [], outcomes: undefined }
    try {
      const outcomes = await this.commit(items, attempt)
      this.observe(items.length, 'ok')
      return outcomes
    } catch (error) {
      const firstId = attempt.insertedIds[0]
      const outcomes = attempt.outcomes
      if (neverReachedDatabase(error) || !firstId || !outcomes) {
        this.pause.noteFailure(error)
        this.observe(items.length, 'failed', error)
        throw error
      }
      const verdict = this.verify(error, firstId, items.length)
      return outcomes.map(async (outcome) => {
        await verdict
        return outcome
      })
    }
  }

  /** Resolves if the failed commit happened after all; rejects with what to tell the clients. */
  private async verify(error: unknown, firstId: string, batchSize: number): Promise<void> {
    const happened = await this.check.happened(firstId)
    if (happened === 'yes') {
      this.observe(batchSize, 'confirmed', error)
      return
    }
    if (happened === 'unknown') {
      this.observe(batchSize, 'unknown', error)
      throw new CommitOutcomeUnknown(error)
    }
    this.observe(batchSize, 'failed', error)
    throw error
  }

  private async commit(
    items: AcceptedDeployment[],
    attempt: CommitAttempt,
  ): Promise<EnqueueOutcome[]> {
    const ids = items.map((item) => uuidv7(item.receivedAt.getTime()))
    // Without Idempotency-Keys the batch is one INSERT, atomic on its own: one round trip.
    if (items.every((item) => item.idempotency === undefined)) {
      attempt.outcomes = ids.map((id) => ({ kind: 'queued', id }))
      attempt.insertedIds = ids
      await this.insertJobs(this.sql, items, ids)
      return attempt.outcomes
    }
    return this.sql.begin(async (tx) => {
      const outcomes = await claimKeys(tx, items, ids)
      const queued = outcomes.map((outcome) => outcome.kind === 'queued')
      attempt.outcomes = outcomes
      attempt.insertedIds = ids.filter((_, index) => queued[index])
      await this.insertJobs(
        tx,
        items.filter((_, index) => queued[index]),
        attempt.insertedIds,
      )
      return outcomes
    })
  }

  private async insertJobs(
    sql: Sql | Tx,
    items: AcceptedDeployment[],
    ids: string[],
  ): Promise<void> {
    await insertIntoInbox(
      sql,
      items.map((item, index) => jobOf(item, ids[index] as string)),
    )
  }
}
