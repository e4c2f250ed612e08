// Idempotency-Key, from the header to the claim: what a valid key is, what a retry must repeat,
// and what each request of a batch becomes once the keys are claimed. The SQL is in
// `@shiplog/db/queries/idempotency-keys`; the worker deletes expired claims.

import { createHash } from 'node:crypto'
import type { Tx } from '@shiplog/db/client'
import { claimIdempotencyKeys, type IdempotencyClaim } from '@shiplog/db/queries/idempotency-keys'
import type { DeploymentFields } from '@shiplog/schema'
import type { AcceptedDeployment, EnqueueOutcome } from './enqueuer.ts'

// Printable ASCII; the IETF draft sends the key as a structured-field string ("..."), while many
// clients send it bare, so both are accepted.
const QUOTED = /^"([\x20\x21\x23-\x5b\x5d-\x7e]{1,255})"$/
const BARE = /^[\x21\x23-\x7e]{1,255}$/

/** The key of an `Idempotency-Key` header, or an error message saying what a valid one is. */
export function parseIdempotencyKey(
  header: string,
): { ok: true; key: string } | { ok: false; message: string } {
  const value = header.trim()
  const quoted = QUOTED.exec(value)
  if (quoted) return { ok: true, key: quoted[1] as string }
  if (BARE.test(value)) return { ok: true, key: value }
  return {
    ok: false,
    message: 'must be 1 to 255 printable ASCII characters, for example a UUID',
  }
}

/**
 * What a retry must repeat for its key to replay rather than conflict: the validated fields as
 * sent. A defaulted `deployedAt` (the receive time, new on every retry) counts as not sent, so
 * the hash is the one of the fields before the validator filled it in.
 */
export function fingerprintOf(fields: DeploymentFields, deployedAtDefaulted: boolean): Buffer {
  // The validator emits fields in schema order, so equal requests serialise identically.
  const sent = deployedAtDefaulted ? { ...fields, deployedAt: null } : fields
  return createHash('sha256').update(JSON.stringify(sent)).digest()
}

/**
 * Claims the batch's keys inside its enqueue transaction and says what each request becomes:
 * queued under its new id (no key, or the key is its own), replayed (the key's earlier request
 * had the same fingerprint) or a conflict. `ids` are the ids the batch's jobs would get.
 */
export async function claimKeys(
  tx: Tx,
  items: AcceptedDeployment[],
  ids: string[],
): Promise<EnqueueOutcome[]> {
  const outcomes = ids.map((id): EnqueueOutcome => ({ kind: 'queued', id }))
  const claims: { index: number; claim: IdempotencyClaim }[] = []
  items.forEach(({ workspaceId, idempotency }, index) => {
    if (!idempotency) return
    const deploymentId = ids[index] as string
    claims.push({ index, claim: { workspaceId, ...idempotency, deploymentId } })
  })
  const holders = await claimIdempotencyKeys(
    tx,
    claims.map(({ claim }) => claim),
  )
  claims.forEach(({ index, claim }, position) => {
    const holder = holders[position]
    if (!holder) throw new Error('an idempotency claim came back without a holder')
    if (holder.deploymentId === claim.deploymentId) return
    outcomes[index] = holder.fingerprint.equals(claim.fingerprint)
      ? { kind: 'replayed', id: holder.deploymentId }
      : { kind: 'conflict' }
  })
  return outcomes
}
