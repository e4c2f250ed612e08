import { createHash } from 'node:crypto'
import type { Sql, Tx } from '@shiplog/db/client'
import { isDatabaseUnavailable, neverReachedDatabase } from '@shiplog/db/errors'
import {
  claimIdempotencyKeys,
  type IdempotencyClaim,
  idempotencyClaimId,
} from '@shiplog/db/queries/idempotency-keys'
import { DEPLOYMENTS_QUEUE, type PgBoss, viaPostgresJs } from '@shiplog/db/queue'
import type { DeploymentFields, DeploymentJob } from '@shiplog/schema'
import { uuidv7 } from '../lib/uuidv7.ts'
import { GroupCommit, type GroupCommitOptions } from './group-commit.ts'

/** A validated deployment the API has decided to accept. */
export interface AcceptedDeployment {
  workspaceId: string
  fields: DeploymentFields
  receivedAt: Date
  idempotencyKey?: string
}

/** What became of it once its commit returned. */
export type EnqueueOutcome =
  | { kind: 'queued'; id: string }
  /** A repeat of an earlier request with the same Idempotency-Key and body: nothing new queued. */
  | { kind: 'replayed'; id: string }
  /** The Idempotency-Key was already used with a different body. */
  | { kind: 'conflict' }

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

// How long new requests are turned away after Postgres was found unreachable.
const UNAVAILABLE_PAUSE_MS = 1_000
// How long a failed commit is checked, waiting for Postgres to come back, before its requests
// are told the outcome is unknown. Short outages thus end with the true answer.
const VERIFY_TIMEOUT_MS = 10_000

/** A commit failed and whether it happened cannot be known yet (Postgres still unreachable). */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super('the queue commit failed and Postgres could not be asked whether it happened', { cause })
  }
}

function fingerprint(fields: DeploymentFields): Buffer {
  // The validator emits fields in schema order, so equal requests serialise identically.
  return createHash('sha256').update(JSON.stringify(fields)).digest()
}

/** The queue payload of an accepted deployment. */
export function toJob(item: AcceptedDeployment, id: string): DeploymentJob {
  const receivedAt = item.receivedAt.toISOString()
  return {
    id,
    workspaceId: item.workspaceId,
    receivedAt,
    deployment: { ...item.fields, deployedAt: item.fields.deployedAt ?? receivedAt },
  }
}

/** What the routes need from a queue: durable enqueueing, and a way to drain before exit. */
export interface Enqueuer {
  enqueue(item: AcceptedDeployment): Promise<EnqueueOutcome>
  whenIdle(): Promise<void>
  /** Requests waiting for a commit and commits running, where the queue batches. */
  readonly depth?: { waiting: number; inFlight: number }
}

/**
 * Puts accepted deployments on the pg-boss queue with group commit: requests that arrive together
 * share one transaction holding their Idempotency-Key claims and their jobs. A caller's promise
 * resolves only after that transaction committed; if it fails, every caller in it is rejected.
 */
export class DeploymentQueue implements Enqueuer {
  private readonly group: GroupCommit<AcceptedDeployment, EnqueueOutcome>

  constructor(
    private readonly sql: Sql,
    private readonly boss: PgBoss,
    options: GroupCommitOptions,
    private readonly observe: CommitObserver,
  ) {
    this.group = new GroupCommit((items) => this.commitOrVerify(items), options)
  }

  /**
   * Resolves once the deployment is durably queued (or recognised as a repeat). Rejects at once,
   * without trying, for a moment after Postgres was found unreachable, so an outage answers 503
   * quickly instead of holding every request for a connection timeout.
   */
  enqueue(item: AcceptedDeployment): Promise<EnqueueOutcome> {
    if (Date.now() < this.unavailableUntil) {
      return Promise.reject(new Error('the queue is unavailable; not trying for a moment'))
    }
    return this.group.submit(item)
  }

  /** Resolves when every accepted request has its answer (for shutdown). */
  async whenIdle(): Promise<void> {
    await this.group.whenIdle()
    await Promise.allSettled([...this.verifying])
  }

  /** Requests waiting for a commit and commits in flight. */
  get depth() {
    return this.group.depth
  }

  private unavailableUntil = 0

  /**
   * Commits a batch. When the commit fails, it may still have happened (the connection can die
   * between COMMIT and its acknowledgement), so before anyone is told 503 we ask whether the
   * batch's first job exists: the jobs of a batch are one statement, all there or none. The
   * asking happens outside the commit slot, so requests behind this batch are not held up: if
   * Postgres is down they find out at once and answer 503.
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
        if (isDatabaseUnavailable(error)) this.unavailableUntil = Date.now() + UNAVAILABLE_PAUSE_MS
        this.observe(items.length, 'failed', error)
        throw error
      }
      const verdict = this.track(this.verify(error, firstId, items.length))
      return outcomes.map(async (outcome) => {
        await verdict
        return outcome
      })
    }
  }

  /** Resolves if the failed commit happened after all; rejects with what to tell the clients. */
  private async verify(error: unknown, firstId: string, batchSize: number): Promise<void> {
    const committed = await this.jobExists(firstId)
    if (committed === 'yes') {
      this.observe(batchSize, 'confirmed', error)
      return
    }
    if (committed === 'unknown') {
      this.observe(batchSize, 'unknown', error)
      throw new CommitOutcomeUnknown(error)
    }
    this.observe(batchSize, 'failed', error)
    throw error
  }

  private readonly verifying = new Set<Promise<void>>()

  // Checks in progress are waited for at shutdown, like commits.
  private track(check: Promise<void>): Promise<void> {
    this.verifying.add(check)
    const untrack = () => this.verifying.delete(check)
    check.then(untrack, untrack)
    return check
  }

  // Asks whether a job exists, retrying briefly: the connection that failed the commit is often
  // not the only casualty, and the pool needs a moment to reconnect.
  private async jobExists(id: string): Promise<'yes' | 'no' | 'unknown'> {
    const deadline = Date.now() + VERIFY_TIMEOUT_MS
    for (let wait = 25; Date.now() < deadline; wait = Math.min(500, wait * 2)) {
      const lookup = this.boss
        .findJobs(DEPLOYMENTS_QUEUE, { id, db: viaPostgresJs(this.sql) })
        .then((jobs): 'yes' | 'no' => (jobs.length > 0 ? 'yes' : 'no'))
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

  private async commit(
    items: AcceptedDeployment[],
    attempt: CommitAttempt,
  ): Promise<EnqueueOutcome[]> {
    const ids = items.map((item) => uuidv7(item.receivedAt.getTime()))
    // Without Idempotency-Keys the batch is one INSERT, atomic on its own: one round trip.
    if (items.every((item) => item.idempotencyKey === undefined)) {
      attempt.outcomes = ids.map((id) => ({ kind: 'queued', id }))
      attempt.insertedIds = ids
      await this.insertJobs(this.sql, items, ids)
      return attempt.outcomes
    }
    const fingerprints = items.map((item) =>
      item.idempotencyKey ? fingerprint(item.fields) : undefined,
    )
    return this.sql.begin(async (tx) => {
      const claims = new Map<string, IdempotencyClaim>()
      items.forEach((item, index) => {
        if (!item.idempotencyKey) return
        const claimId = idempotencyClaimId(item.workspaceId, item.idempotencyKey)
        if (!claims.has(claimId)) {
          claims.set(claimId, {
            workspaceId: item.workspaceId,
            key: item.idempotencyKey,
            fingerprint: fingerprints[index] as Buffer,
            deploymentId: ids[index] as string,
          })
        }
      })
      const holders = await claimIdempotencyKeys(tx, [...claims.values()])
      const outcomes = items.map((item, index): EnqueueOutcome => {
        const id = ids[index] as string
        if (!item.idempotencyKey) return { kind: 'queued', id }
        const holder = holders.get(idempotencyClaimId(item.workspaceId, item.idempotencyKey))
        if (!holder) throw new Error('an idempotency claim came back without a holder')
        if (holder.deploymentId === id) return { kind: 'queued', id }
        return holder.fingerprint.equals(fingerprints[index] as Buffer)
          ? { kind: 'replayed', id: holder.deploymentId }
          : { kind: 'conflict' }
      })
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
    if (items.length === 0) return
    const jobs = items.map((item, index) => {
      const id = ids[index] as string
      return { id, data: toJob(item, id) }
    })
    await this.boss.insert(DEPLOYMENTS_QUEUE, jobs, { db: viaPostgresJs(sql) })
  }
}
