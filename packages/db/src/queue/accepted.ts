import type { DeploymentFields } from '@shiplog/schema'

/** A checked deployment the API has decided to accept. */
export interface AcceptedDeployment {
  workspaceId: string
  fields: DeploymentFields
  receivedAt: Date
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

/** A commit failed and whether it happened cannot be known yet (Postgres still unreachable). */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super('the queue commit failed and Postgres could not be asked whether it happened', { cause })
  }
}
