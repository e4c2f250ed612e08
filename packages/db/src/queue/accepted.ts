import type { DeploymentFields } from '@shiplog/schema'
import { isDatabaseUnavailable, isPostgresError } from '../errors.ts'

/** A checked deployment the API has decided to accept. */
export interface AcceptedDeployment {
  workspaceId: string
  fields: DeploymentFields
  receivedAt: Date
  /** Where it came from (`cli`, `github`…); absent is `api`. */
  source?: string
  /** Its Idempotency-Key and the fingerprint a retry must match (`idempotency.ts`). */
  idempotency?: { key: string; fingerprint: Buffer }
}

/** What became of it once its commit returned. */
export type EnqueueOutcome =
  | { kind: 'queued'; id: string }
  /** A repeat of an earlier request with the same Idempotency-Key and body: nothing new queued. */
  | { kind: 'replayed'; id: string }
  /** The Idempotency-Key was already used with a different body. */
  | { kind: 'conflict' }

/** Postgres could not be reached, or refused the queue commit: the deployment was not accepted. */
export class QueueUnavailable extends Error {
  constructor(cause?: unknown) {
    super('the deployment could not be queued: Postgres is unavailable', { cause })
  }
}

/**
 * What a failed acceptance rejects with: Postgres unreachable, or refusing the commit (a timeout,
 * a full disk, a trigger), is `QueueUnavailable`, for the client to retry. An exception of our
 * own code stays what it is, a bug.
 */
export function acceptanceFailure(error: unknown): unknown {
  if (isDatabaseUnavailable(error) || isPostgresError(error)) return new QueueUnavailable(error)
  return error
}

/** A commit failed and whether it happened cannot be known yet (Postgres still unreachable). */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super('the queue commit failed and Postgres could not be asked whether it happened', { cause })
  }
}

/**
 * How a queue commit ended: ok; failed (its requests got 503); confirmed (it failed but had
 * happened, so 202); unknown (Postgres could not be asked, so 503 outcome-unknown).
 */
export type CommitOutcome = 'ok' | 'failed' | 'confirmed' | 'unknown'

/** Told about every commit (for logs and metrics); `error` is set unless the outcome is ok. */
export type CommitObserver = (batchSize: number, outcome: CommitOutcome, error?: unknown) => void
