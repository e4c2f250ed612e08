import type { Queryable, Sql } from '../client.ts'

/** An `Idempotency-Key` a request wants to claim for the deployment it carries. */
export interface IdempotencyClaim {
  workspaceId: string
  key: string
  fingerprint: Buffer
  deploymentId: string
}

/** The request that holds a key: it may be this claim or an earlier one. */
export interface IdempotencyHolder {
  fingerprint: Buffer
  deploymentId: string
}

const claimId = (workspaceId: string, key: string) => `${workspaceId}\u0000${key}`

/**
 * Claims keys for 24 hours inside the enqueue transaction. A key whose claim has expired is taken
 * over; a key claimed twice in one call goes to the first. Returns the holder of each claim's key,
 * in the order of `claims`: the claim itself when it won, else the live earlier one.
 */
export async function claimIdempotencyKeys(
  tx: Queryable,
  claims: IdempotencyClaim[],
): Promise<(IdempotencyHolder | undefined)[]> {
  if (claims.length === 0) return []
  // One row may be written once per statement: duplicates would make `on conflict` fail.
  const distinct = new Map<string, IdempotencyClaim>()
  for (const claim of claims) {
    const id = claimId(claim.workspaceId, claim.key)
    if (!distinct.has(id)) distinct.set(id, claim)
  }
  const unique = [...distinct.values()]
  const won = await tx<{ workspace_id: string; key: string }[]>`
    insert into idempotency_keys (workspace_id, key, fingerprint, deployment_id, expires_at)
    select w, k, decode(f, 'hex'), d, now() + interval '24 hours' from unnest(
      ${unique.map((c) => c.workspaceId)}::bigint[],
      ${unique.map((c) => c.key)}::text[],
      ${unique.map((c) => c.fingerprint.toString('hex'))}::text[],
      ${unique.map((c) => c.deploymentId)}::uuid[]) as u(w, k, f, d)
    on conflict (workspace_id, key) do update set
      fingerprint = excluded.fingerprint, deployment_id = excluded.deployment_id,
      expires_at = excluded.expires_at
      where idempotency_keys.expires_at <= now()
    returning workspace_id::text, key`
  const holders = new Map<string, IdempotencyHolder>()
  for (const row of won) {
    const id = claimId(row.workspace_id, row.key)
    holders.set(id, distinct.get(id) as IdempotencyClaim)
  }
  const lost = unique.filter((c) => !holders.has(claimId(c.workspaceId, c.key)))
  if (lost.length > 0) {
    const earlier = await tx<
      { workspace_id: string; key: string; fingerprint: Buffer; deployment_id: string }[]
    >`
      select workspace_id::text, key, fingerprint, deployment_id from idempotency_keys
       where (workspace_id, key) in (select * from unnest(
         ${lost.map((c) => c.workspaceId)}::bigint[], ${lost.map((c) => c.key)}::text[]))`
    for (const row of earlier) {
      holders.set(claimId(row.workspace_id, row.key), {
        fingerprint: row.fingerprint,
        deploymentId: row.deployment_id,
      })
    }
  }
  return claims.map((claim) => holders.get(claimId(claim.workspaceId, claim.key)))
}

/** Deletes expired claims; returns how many. */
export async function deleteExpiredIdempotencyKeys(sql: Sql): Promise<number> {
  const rows = await sql`delete from idempotency_keys where expires_at <= now() returning 1`
  return rows.length
}
