import type { Sql } from '../client.ts'

/** What a lease from a key's shared bucket granted and what it left behind. */
export interface TokenLease {
  granted: number
  remaining: number
}

/** Takes up to `wanted` tokens from a key's shared bucket in one round trip. */
export async function leaseTokens(
  sql: Sql,
  keyId: string,
  wanted: number,
  shape: { capacity: number; perMinute: number },
): Promise<TokenLease> {
  const [row] = await sql<TokenLease[]>`
    select granted, remaining
      from lease_rate_limit_tokens(${keyId}::uuid, ${wanted}::int, ${shape.capacity}::float8, ${shape.perMinute / 60}::float8)`
  return row ?? { granted: 0, remaining: 0 }
}
