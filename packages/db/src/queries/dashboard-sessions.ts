import type { Sql } from '../client.ts'
import type { KeyOwner } from './api-keys.ts'
import type { Person } from './people.ts'

interface SessionBase {
  /** Sent back by every form of the session. */
  csrfToken: string
  expiresAt: Date
}

/** A session signed in with an API key: it may do what the key may. */
export interface KeySession extends SessionBase {
  kind: 'key'
  owner: KeyOwner
}

/** A session of a person in one workspace; their role there is decided at each request. */
export interface PersonSession extends SessionBase {
  kind: 'person'
  person: Person
  workspaceId: string
  workspaceSlug: string
  /** For signing out at the provider (id_token_hint). */
  idToken: string | null
}

/** A signed-in dashboard session. */
export type DashboardSession = KeySession | PersonSession

/** Who a new session speaks for: a key, or a person in a workspace. */
export type SessionSubject =
  | { apiKeyId: string }
  | { personId: string; workspaceId: string; idToken: string | null }

/** Stores a new session (its token's hash), dropping sessions that have expired meanwhile. */
export async function createDashboardSession(
  sql: Sql,
  session: {
    tokenHash: Buffer
    subject: SessionSubject
    csrfToken: string
    lifetimeSeconds: number
  },
): Promise<void> {
  const { subject } = session
  const key = 'apiKeyId' in subject ? subject.apiKeyId : null
  const person =
    'personId' in subject ? subject : { personId: null, workspaceId: null, idToken: null }
  await sql`delete from dashboard_sessions where expires_at < now()`
  await sql`
    insert into dashboard_sessions (token_hash, api_key_id, person_id, workspace_id, id_token,
                                    csrf_token, expires_at)
    values (${session.tokenHash}, ${key}, ${person.personId}, ${person.workspaceId},
            ${person.idToken}, ${session.csrfToken},
            now() + make_interval(secs => ${session.lifetimeSeconds}))`
}

interface SessionRow {
  csrfToken: string
  expiresAt: Date
  keyId: string | null
  scopes: KeyOwner['scopes']
  rateLimitPerMinute: number | null
  personId: string | null
  email: string | null
  name: string | null
  groups: string[] | null
  idToken: string | null
  workspaceId: string
  workspaceSlug: string
}

/**
 * The session with this token hash, if it has not expired and, for a key's session, its key is
 * not revoked (a person's access is checked by the caller, against the role mapping).
 */
export async function findDashboardSession(
  sql: Sql,
  tokenHash: Buffer,
): Promise<DashboardSession | undefined> {
  const [row] = await sql<SessionRow[]>`
    select s.csrf_token as "csrfToken", s.expires_at as "expiresAt",
           k.id as "keyId", k.scopes, k.rate_limit_per_minute as "rateLimitPerMinute",
           p.id as "personId", p.email, p.name, p.groups, s.id_token as "idToken",
           w.id::text as "workspaceId", w.slug as "workspaceSlug"
      from dashboard_sessions s
      left join api_keys k on k.id = s.api_key_id and k.revoked_at is null
      left join people p on p.id = s.person_id
      join workspaces w on w.id = coalesce(k.workspace_id, s.workspace_id)
     where s.token_hash = ${tokenHash} and s.expires_at > now()
       and (k.id is not null or p.id is not null)`
  if (!row) return undefined
  const base = { csrfToken: row.csrfToken, expiresAt: row.expiresAt }
  if (row.keyId !== null) {
    const owner: KeyOwner = {
      keyId: row.keyId,
      workspaceId: row.workspaceId,
      workspaceSlug: row.workspaceSlug,
      scopes: row.scopes,
      rateLimitPerMinute: row.rateLimitPerMinute,
    }
    return { ...base, kind: 'key', owner }
  }
  return {
    ...base,
    kind: 'person',
    person: {
      id: row.personId as string,
      email: row.email,
      name: row.name,
      groups: row.groups ?? [],
    },
    workspaceId: row.workspaceId,
    workspaceSlug: row.workspaceSlug,
    idToken: row.idToken,
  }
}

/** Moves a person's session to another workspace of theirs (the header's switch). */
export async function moveDashboardSession(
  sql: Sql,
  tokenHash: Buffer,
  workspaceId: string,
): Promise<void> {
  await sql`
    update dashboard_sessions set workspace_id = ${workspaceId}
     where token_hash = ${tokenHash} and person_id is not null`
}

/** Ends a session (sign-out); nothing happens for an unknown token. */
export async function deleteDashboardSession(sql: Sql, tokenHash: Buffer): Promise<void> {
  await sql`delete from dashboard_sessions where token_hash = ${tokenHash}`
}
