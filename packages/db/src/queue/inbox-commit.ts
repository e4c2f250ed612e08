import type { Queryable, Sql } from '../client.ts'
import type { DeploymentJob } from '../deployment-job.ts'
import { neverReachedDatabase } from '../errors.ts'
import { uuidv7 } from '../uuidv7.ts'
import type { AcceptedDeployment, CommitObserver, EnqueueOutcome } from './accepted.ts'
import { CommitCheck } from './commit-check.ts'
import type { Engine } from './engine.ts'
import { claimKeys } from './idempotency.ts'
import { insertIntoInbox } from './inbox.ts'
import type { UnavailablePause } from './unavailable-pause.ts'

/** What a commit got as far as, so a failure can be checked against what reached Postgres. */
interface CommitAttempt {
  insertedIds: string[]
  outcomes: EnqueueOutcome[] | undefined
}

/** Runs `work` in a transaction when `needed`, else on the pool: a lone statement is atomic. */
function inTransactionIf<T>(
  sql: Sql,
  needed: boolean,
  work: (db: Queryable) => Promise<T>,
): Promise<T> {
  return needed ? (sql.begin(work) as Promise<T>) : work(sql)
}

/** The queue payload of an accepted deployment: what the worker records, as it will store it. */
const jobOf = (item: AcceptedDeployment, id: string): DeploymentJob => ({
  id,
  workspaceId: item.workspaceId,
  receivedAt: item.receivedAt.toISOString(),
  deployment: item.fields,
  source: item.source,
})

/**
 * Commits a group commit's batches to the inbox (`deployment_inbox`): one transaction holding
 * the batch's Idempotency-Key claims and its rows, or one INSERT where it has no keys. A failed
 * commit may still have happened: it is checked before its requests are answered.
 */
export class InboxCommit {
  private readonly check: CommitCheck

  constructor(
    private readonly sql: Sql,
    engine: Engine,
    private readonly pause: UnavailablePause,
    private readonly observe: CommitObserver,
  ) {
    this.check = new CommitCheck(sql, engine, observe)
  }

  /** Resolves once no failed commit is being checked (for shutdown). */
  whenIdle(): Promise<void> {
    return this.check.whenIdle()
  }

  /**
   * Commits a batch. When the commit fails it may still have happened, so before anyone is told
   * 503 it is checked (`commit-check.ts`). The check happens outside the commit slot, so requests
   * behind this batch are not held up: if Postgres is down they find out at once and answer 503.
   */
  async commitOrVerify(
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
      const verdict = this.check.confirm(error, firstId, items.length)
      return outcomes.map(async (outcome) => {
        await verdict
        return outcome
      })
    }
  }

  /**
   * Claims the batch's Idempotency-Keys and inserts the rows of those it queues. Without keys the
   * batch is one INSERT, atomic on its own: one round trip; with keys, claims and rows share one
   * transaction. `attempt` records how far it got, for the check of a failed commit.
   */
  private async commit(
    items: AcceptedDeployment[],
    attempt: CommitAttempt,
  ): Promise<EnqueueOutcome[]> {
    const ids = items.map((item) => uuidv7(item.receivedAt.getTime()))
    const keyed = items.some((item) => item.idempotency !== undefined)
    return inTransactionIf(this.sql, keyed, (db) => this.enter(db, items, ids, attempt))
  }

  // The claims of the batch's keys (none without keys), then the rows of those queued.
  private async enter(
    sql: Queryable,
    items: AcceptedDeployment[],
    ids: string[],
    attempt: CommitAttempt,
  ): Promise<EnqueueOutcome[]> {
    const outcomes = await claimKeys(sql, items, ids)
    const queued = items.flatMap((item, index) => {
      const outcome = outcomes[index]
      return outcome?.kind === 'queued' ? [jobOf(item, outcome.id)] : []
    })
    attempt.outcomes = outcomes
    attempt.insertedIds = queued.map((job) => job.id)
    await insertIntoInbox(sql, queued)
    return outcomes
  }
}
