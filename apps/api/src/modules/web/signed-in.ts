import type { DashboardSession } from '@shiplog/db/queries/dashboard-sessions'
import { allows, type Scope } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { HttpProblem, problems } from '../../kernel/problems.ts'
import type { WebDeps } from './deps.ts'
import { formOf } from './page-input.ts'
import { type PageSnapshot, pageSnapshot } from './page-snapshot.ts'
import { type Principal, principalOf } from './principal.ts'
import { problemPageResponse, redirect } from './responses.ts'
import { csrfMatches, endSession, sameOrigin, sessionCookie, sessionOf } from './session.ts'
import type { Viewer } from './views/layout.ts'

/** A signed-in request: its session, what it may do, and how its page reads. */
export interface PageRequest {
  request: Request
  url: URL
  session: DashboardSession
  /** What the session may do, decided for this request. */
  principal: Principal
  viewer: Viewer
  /** A post's fields (its CSRF token checked); empty for a GET. */
  form: URLSearchParams
  /** Runs a page's reads in one snapshot, in the session's read slot (page-snapshot.ts). */
  snapshot: PageSnapshot
}

/** A scope a route needs, and what it does, for the 403 ("Voiding needs …"). */
export interface Need {
  scope: Scope
  what: string
}

// What each scope lets a person do, for the 403 of a post their role does not allow.
const NEEDS: Partial<Record<Scope, string>> = {
  admin: 'the admin role (or a key with the admin scope)',
  'incidents:write': 'the operator or admin role (or a key with the incidents:write scope)',
}

/** Whether the session may act under `scope`, for pages to offer only what it may do. */
export const may = (page: Pick<PageRequest, 'principal'>, scope: Scope) =>
  allows(page.principal.scopes, scope)

/** Sends the browser to sign in, back here afterwards (a GET), with the session cookie dropped. */
function toSignIn(request: Request, url: URL, lost: boolean): Response {
  const query = new URLSearchParams(
    request.method === 'GET' ? { next: url.pathname + url.search } : {},
  )
  if (lost) query.set('lost', '1')
  const location = query.size > 0 ? `/ui/sign-in?${query}` : '/ui/sign-in'
  return redirect(location, lost ? { 'set-cookie': sessionCookie(request, null) } : {})
}

/**
 * The signed-in request, or the answer that turns it away: to sign in for anyone not signed in
 * (then back here), a 403 page for a post not sent from the session's own pages or a session
 * without `need`. The session's rights are decided again at each request (principal.ts): a
 * revoked key, a role mapping that no longer names the person, or a way of signing in turned off
 * ends it.
 */
async function pageRequestOf(
  deps: WebDeps,
  request: Request,
  need: Need | undefined,
): Promise<PageRequest | Response> {
  const url = new URL(request.url)
  const session = await sessionOf(deps.sql, request)
  const principal = session && principalOf(session, deps.signIn)
  if (!session || !principal) {
    if (session) await endSession(deps.sql, request)
    return toSignIn(request, url, session !== undefined)
  }
  const viewer = { principal, csrfToken: session.csrfToken }
  try {
    const posted = request.method !== 'GET'
    const form = posted ? await formOf(request) : new URLSearchParams()
    if (posted && (!sameOrigin(request) || !csrfMatches(session, form.get('csrf') ?? undefined))) {
      throw problems.forbidden(
        'This form was not sent from a page of this session: reload the page and try again.',
      )
    }
    if (need && !allows(principal.scopes, need.scope)) {
      throw problems.forbidden(
        `${need.what} needs ${NEEDS[need.scope] ?? need.scope}: sign in as someone who has it.`,
      )
    }
    const snapshot = pageSnapshot(deps, principal.slot)
    return { request, url, session, principal, viewer, form, snapshot }
  } catch (error) {
    if (error instanceof HttpProblem) return problemPageResponse(error, viewer)
    throw error
  }
}

/**
 * The dashboard's one context, which every page group uses: `web`, the app's databases, queue and
 * settings; and the `signedIn` need a route declares (`signedIn: true`, or the scope it needs),
 * which hands its handler `page` or answers for it (see pageRequestOf).
 */
export function signedInPages(deps: WebDeps) {
  return new Elysia({ name: 'web/signed-in' }).decorate('web', deps).macro({
    signedIn: (need: true | Need) => ({
      async resolve({ request, set, status }) {
        const page = await pageRequestOf(deps, request, need === true ? undefined : need)
        if (!(page instanceof Response)) return { page }
        // Answered here, before any handler: the hooks after the response (the metrics, the
        // request log) read its status from `set`.
        set.status = page.status
        return status(page.status as 403, page)
      },
    }),
  })
}

/** The plugin every page group mounts, for the `signedIn` need and its `page`. */
export type SignedInPages = ReturnType<typeof signedInPages>
