import type { Sql } from '../client.ts'
import type { KeyOwner } from './api-keys.ts'

/** A signed-in dashboard session: whose key, and the token its forms must send back. */
export interface DashboardSession {
  owner: KeyOwner
  csrfToken: string
  expiresAt: Date
}

/** Stores a new session (its token's hash), dropping sessions that have expired meanwhile. */
export async function createDashboardSession(
  sql: Sql,
  session: { tokenHash: Buffer; apiKeyId: string; csrfToken: string; lifetimeSeconds: number },
): Promise<void> {
  await sql`delete from dashboard_sessions where expires_at < now()`
  await sql`
    insert into dashboard_sessions (token_hash, api_key_id, csrf_token, expires_at)
    values (${session.tokenHash}, ${session.apiKeyId}, ${session.csrfToken},
            now() + make_interval(secs => ${session.lifetimeSeconds}))`
}

/** The session with this token hash, if it has not expired and its key is not revoked. */
export async function findDashboardSession(
  sql: Sql,
  tokenHash: Buffer,
): Promise<DashboardSession | undefined> {
  const [row] = await sql<(KeyOwner & { csrfToken: string; expiresAt: Date })[]>`
    select k.id as "keyId", w.id::text as "workspaceId", w.slug as "workspaceSlug", k.scopes,
           k.rate_limit_per_minute as "rateLimitPerMinute",
           s.csrf_token as "csrfToken", s.expires_at as "expiresAt"
      from dashboard_sessions s
      join api_keys k on k.id = s.api_key_id
      join workspaces w on w.id = k.workspace_id
     where s.token_hash = ${tokenHash} and s.expires_at > now() and k.revoked_at is null`
  if (!row) return undefined
  const { csrfToken, expiresAt, ...owner } = row
  return { owner, csrfToken, expiresAt }
}

/** Ends a session (sign-out); nothing happens for an unknown token. */
export async function deleteDashboardSession(sql: Sql, tokenHash: Buffer): Promise<void> {
  await sql`delete from dashboard_sessions where token_hash = ${tokenHash}`
}
