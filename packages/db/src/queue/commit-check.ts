import type { Sql } from '../client.ts'
import { type CommitObserver, CommitOutcomeUnknown } from './accepted.ts'
import { type Engine, RETRIES, viaPostgresJs } from './engine.ts'
import { wasAccepted } from './inbox.ts'

// How long a failed commit is checked, waiting for Postgres to come back, before its requests
// are told the outcome is unknown. Short outages thus end with the true answer.
const VERIFY_TIMEOUT_MS = 10_000

/** Whether a failed commit happened after all; `unknown` when Postgres could not be asked. */
export type CommitVerdict = 'yes' | 'no' | 'unknown'

/**
 * Finds out whether a failed commit happened: the connection can die between COMMIT and its
 * acknowledgement. Asks whether the batch's first deployment was accepted (in the inbox, or
 * already recorded by the worker), since a batch's rows are one statement, all there or none.
 * Checks in progress are waited for at shutdown, like commits.
 */
export class CommitCheck {
  private readonly running = new Set<Promise<CommitVerdict>>()

  constructor(
    private readonly sql: Sql,
    private readonly engine: Engine,
    private readonly observe: CommitObserver,
  ) {}

  /**
   * Resolves if the failed commit whose first job is `firstId` happened after all; rejects with
   * what to tell its `batchSize` clients: the commit's error, or `CommitOutcomeUnknown`.
   */
  async confirm(error: unknown, firstId: string, batchSize: number): Promise<void> {
    const happened = await this.happened(firstId)
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

  /** Whether the commit whose first job is `firstId` happened. */
  happened(firstId: string): Promise<CommitVerdict> {
    const check = this.jobExists(firstId)
    this.running.add(check)
    const untrack = () => this.running.delete(check)
    check.then(untrack, untrack)
    return check
  }

  /** Resolves once no check is running. */
  async whenIdle(): Promise<void> {
    await Promise.allSettled([...this.running])
  }

  // Asks whether a job exists, retrying briefly: the connection that failed the commit is often
  // not the only casualty, and the pool needs a moment to reconnect.
  private async jobExists(id: string): Promise<CommitVerdict> {
    const deadline = Date.now() + VERIFY_TIMEOUT_MS
    for (let wait = 25; Date.now() < deadline; wait = Math.min(500, wait * 2)) {
      // A deployment whose first attempt failed has moved on to the engine for its retries.
      const lookup = wasAccepted(this.sql, id)
        .then(
          async (found) =>
            found ||
            (await this.engine.findJobs(RETRIES, { id, db: viaPostgresJs(this.sql) })).length > 0,
        )
        .then((found): CommitVerdict => (found ? 'yes' : 'no'))
        .catch(() => 'unknown' as const)
      let timer: ReturnType<typeof setTimeout> | undefined
      const giveUp = new Promise<'unknown'>((resolve) => {
        timer = setTimeout(() => resolve('unknown'), Math.max(0, deadline - Date.now()))
      })
      const answer = await Promise.race([lookup, giveUp])
      clearTimeout(timer)
      if (answer !== 'unknown') return answer
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
    return 'unknown'
  }
}
