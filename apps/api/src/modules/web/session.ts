import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Sql } from '@shiplog/db/client'
import {
  createDashboardSession,
  type DashboardSession,
  deleteDashboardSession,
  findDashboardSession,
} from '@shiplog/db/queries/dashboard-sessions'

export const SESSION_COOKIE = 'shiplog_session'
/** A session lasts a working day; signing in again is one paste. */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60

const hashOf = (token: string) => createHash('sha256').update(token).digest()

/** The session token a request's cookie carries, if any. */
export function sessionTokenOf(request: Request): string | undefined {
  const header = request.headers.get('cookie')
  if (!header) return undefined
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === SESSION_COOKIE) return value.join('=') || undefined
  }
  return undefined
}

/** The live session of a request: undefined without a cookie, or once expired or revoked. */
export async function sessionOf(sql: Sql, request: Request): Promise<DashboardSession | undefined> {
  const token = sessionTokenOf(request)
  // Tokens are 43 base64url characters; anything else is not worth a lookup.
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined
  return findDashboardSession(sql, hashOf(token))
}

/** Starts a session for a key; returns the cookie token, which is stored only hashed. */
export async function startSession(sql: Sql, apiKeyId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await createDashboardSession(sql, {
    tokenHash: hashOf(token),
    apiKeyId,
    csrfToken: randomBytes(32).toString('base64url'),
    lifetimeSeconds: SESSION_LIFETIME_SECONDS,
  })
  return token
}

/** Ends the request's session, if it has one. */
export async function endSession(sql: Sql, request: Request): Promise<void> {
  const token = sessionTokenOf(request)
  if (token) await deleteDashboardSession(sql, hashOf(token))
}

// Secure whenever the browser reached us over TLS, directly or through an Ingress that says so.
const overTls = (request: Request) =>
  new URL(request.url).protocol === 'https:' ||
  request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https'

/** The Set-Cookie value that gives the browser a session, or (token null) takes it away. */
export function sessionCookie(request: Request, token: string | null): string {
  const attributes = [
    `${SESSION_COOKIE}=${token ?? ''}`,
    'Path=/ui',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${token ? SESSION_LIFETIME_SECONDS : 0}`,
  ]
  if (overTls(request)) attributes.push('Secure')
  return attributes.join('; ')
}

/** Whether a form's CSRF token is the session's (in constant time). */
export function csrfMatches(session: DashboardSession, sent: string | undefined): boolean {
  if (!sent) return false
  const expected = Buffer.from(session.csrfToken)
  const actual = Buffer.from(sent)
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/**
 * Whether a state-changing request comes from our own pages: browsers send Origin on every POST,
 * and a page elsewhere cannot make it ours. (SameSite=Strict keeps the cookie off cross-site
 * requests too; the form token covers browsers that send neither.)
 */
export function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin')
  if (origin === null) return true
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host')
  try {
    return new URL(origin).host === host
  } catch {
    return false
  }
}
