// Idempotency-Key, from the checked header to the claim: what a retry must repeat, and what each
// request of a batch becomes once the keys are claimed (what a valid key is: @shiplog/schema).
// The SQL is in `idempotency-keys.ts`; the worker deletes expired claims.

import { createHash } from 'node:crypto'
import type { DeploymentFields } from '@shiplog/schema'
import type { Queryable } from '../client.ts'
import type { AcceptedDeployment, EnqueueOutcome } from './accepted.ts'
import { claimIdempotencyKeys, type IdempotencyClaim } from './idempotency-keys.ts'

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
 * had the same fingerprint) or a conflict. `ids` are the ids the batch's jobs would get. A batch
 * without keys asks nothing of Postgres; one with keys claims them in its transaction, `tx`.
 */
export async function claimKeys(
  tx: Queryable,
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
