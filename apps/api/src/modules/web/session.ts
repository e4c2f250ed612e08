import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Sql } from '@shiplog/db/client'
import {
  createDashboardSession,
  type DashboardSession,
  deleteDashboardSession,
  findDashboardSession,
  moveDashboardSession,
  type SessionSubject,
} from '@shiplog/db/queries/dashboard-sessions'

export const SESSION_COOKIE = 'shiplog_session'
/** A session lasts a working day; signing in again is one paste, or one click. */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60

/** How tokens are kept server-side: only their SHA-256. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest()

/** A new opaque token for a cookie: 32 random bytes, 43 base64url characters. */
export const newToken = () => randomBytes(32).toString('base64url')

/** The value of a cookie of the request, if it has a token's shape (else not worth a lookup). */
export function cookieTokenOf(request: Request, cookie: string): string | undefined {
  const header = request.headers.get('cookie')
  if (!header) return undefined
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name !== cookie) continue
    const token = value.join('=')
    return /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined
  }
  return undefined
}

/** The live session of a request: undefined without a cookie, or once expired or revoked. */
export async function sessionOf(sql: Sql, request: Request): Promise<DashboardSession | undefined> {
  const token = cookieTokenOf(request, SESSION_COOKIE)
  return token ? findDashboardSession(sql, tokenHash(token)) : undefined
}

/** Starts a session for a key or a person; returns the cookie token, stored only hashed. */
export async function startSession(sql: Sql, subject: SessionSubject): Promise<string> {
  const token = newToken()
  await createDashboardSession(sql, {
    tokenHash: tokenHash(token),
    subject,
    csrfToken: newToken(),
    lifetimeSeconds: SESSION_LIFETIME_SECONDS,
  })
  return token
}

/** Ends the request's session, if it has one. */
export async function endSession(sql: Sql, request: Request): Promise<void> {
  const token = cookieTokenOf(request, SESSION_COOKIE)
  if (token) await deleteDashboardSession(sql, tokenHash(token))
}

/** Moves the request's (person's) session to another workspace. */
export async function moveSession(sql: Sql, request: Request, workspaceId: string): Promise<void> {
  const token = cookieTokenOf(request, SESSION_COOKIE)
  if (token) await moveDashboardSession(sql, tokenHash(token), workspaceId)
}

// Secure whenever the browser reached us over TLS, directly or through an Ingress that says so.
const overTls = (request: Request) =>
  new URL(request.url).protocol === 'https:' ||
  request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https'

/** A Set-Cookie value for an opaque token (HttpOnly; Secure over TLS); null takes it away. */
export function tokenCookie(
  request: Request,
  cookie: { name: string; path: string; sameSite: 'Strict' | 'Lax'; maxAge: number },
  token: string | null,
): string {
  const attributes = [
    `${cookie.name}=${token ?? ''}`,
    `Path=${cookie.path}`,
    'HttpOnly',
    `SameSite=${cookie.sameSite}`,
    `Max-Age=${token ? cookie.maxAge : 0}`,
  ]
  if (overTls(request)) attributes.push('Secure')
  return attributes.join('; ')
}

/**
 * The Set-Cookie value that gives the browser a session, or (token null) takes it away. Strict:
 * no other site's page, link or form ever sends it (docs/sign-in.md says how single sign-on's
 * callback, which arrives from the provider's site, still lands signed in).
 */
export const sessionCookie = (request: Request, token: string | null) =>
  tokenCookie(
    request,
    { name: SESSION_COOKIE, path: '/ui', sameSite: 'Strict', maxAge: SESSION_LIFETIME_SECONDS },
    token,
  )

/** Whether a form's CSRF token is the session's (in constant time). */
export function csrfMatches(session: { csrfToken: string }, sent: string | undefined): boolean {
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
