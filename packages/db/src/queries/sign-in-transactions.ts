import type { Sql } from '../client.ts'

/** What a sign-in at the identity provider must find again at its callback. */
export interface SignInTransaction {
  state: string
  nonce: string
  codeVerifier: string
  /** The dashboard page to land on once signed in. */
  next: string
}

/** Stores a sign-in under way (its reference's hash), dropping those that have expired. */
export async function createSignInTransaction(
  sql: Sql,
  tokenHash: Buffer,
  transaction: SignInTransaction,
  lifetimeSeconds: number,
): Promise<void> {
  await sql`delete from sign_in_transactions where expires_at < now()`
  await sql`
    insert into sign_in_transactions (token_hash, state, nonce, code_verifier, next, expires_at)
    values (${tokenHash}, ${transaction.state}, ${transaction.nonce}, ${transaction.codeVerifier},
            ${transaction.next}, now() + make_interval(secs => ${lifetimeSeconds}))`
}

/**
 * Takes a sign-in under way: it is deleted as it is read, so a callback replayed (the same code
 * and state sent again) finds nothing. Undefined when unknown, already taken or expired.
 */
export async function takeSignInTransaction(
  sql: Sql,
  tokenHash: Buffer,
): Promise<SignInTransaction | undefined> {
  const [row] = await sql<(SignInTransaction & { live: boolean })[]>`
    delete from sign_in_transactions where token_hash = ${tokenHash}
    returning state, nonce, code_verifier as "codeVerifier", next, expires_at > now() as live`
  return row?.live ? row : undefined
}
