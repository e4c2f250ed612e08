import type { DashboardSession } from '@shiplog/db/queries/dashboard-sessions'
import { allows, type Scope } from '@shiplog/schema'
import { HttpProblem, problems } from '../../kernel/problems.ts'
import type { WebDeps } from './deps.ts'
import { formOf } from './page-input.ts'
import { type Principal, principalOf } from './principal.ts'
import { pageResponse, problemResponse, redirect } from './responses.ts'
import { csrfMatches, endSession, sameOrigin, sessionCookie, sessionOf } from './session.ts'
import { layout, type PageContent, type Viewer } from './views/layout.ts'

/** A signed-in request: its session, and how its page is answered. */
export interface PageRequest {
  request: Request
  url: URL
  session: DashboardSession
  /** What the session may do, decided for this request. */
  principal: Principal
  viewer: Viewer
  /** A post's fields (its CSRF token checked); empty for a GET. */
  form: URLSearchParams
  /** Runs a read in the session's read slots, as the API runs a key's reads. */
  read: <T>(work: () => Promise<T>) => Promise<T>
}

// What each scope lets a person do, for the 403 of a post their role does not allow.
const NEEDS: Partial<Record<Scope, string>> = {
  admin: 'the admin role (or a key with the admin scope)',
  'incidents:write': 'the operator or admin role (or a key with the incidents:write scope)',
}

/** Refuses (403) a request whose session may not act under `scope`: pages hide, posts check. */
export function requireRole(page: PageRequest, scope: Scope, what: string): void {
  if (allows(page.principal.scopes, scope)) return
  throw problems.forbidden(`${what} needs ${NEEDS[scope] ?? scope}: sign in as someone who has it.`)
}

/** Whether the session may act under `scope`, for pages to offer only what it may do. */
export const may = (page: PageRequest, scope: Scope) => allows(page.principal.scopes, scope)

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
 * Runs a page handler for a signed-in person; sends anyone else to sign in, then back here. The
 * session's rights are decided again at each request (principal.ts): a revoked key, a role
 * mapping that no longer names the person, or a way of signing in turned off ends it.
 */
export function signedIn(
  deps: WebDeps,
  handler: (page: PageRequest) => Promise<Response | PageContent>,
) {
  return async ({ request }: { request: Request }): Promise<Response> => {
    const url = new URL(request.url)
    const session = await sessionOf(deps.sql, request)
    const principal = session && principalOf(session, deps.signIn)
    if (!session || !principal) {
      if (session) await endSession(deps.sql, request)
      return toSignIn(request, url, session !== undefined)
    }
    const viewer = { principal, csrfToken: session.csrfToken }
    const read = <T>(work: () => Promise<T>) => deps.reads.run(principal.slot, work)
    try {
      const posted = request.method !== 'GET'
      const form = posted ? await formOf(request) : new URLSearchParams()
      if (
        posted &&
        (!sameOrigin(request) || !csrfMatches(session, form.get('csrf') ?? undefined))
      ) {
        throw problems.forbidden(
          'This form was not sent from a page of this session: reload the page and try again.',
        )
      }
      const answer = await handler({ request, url, session, principal, viewer, form, read })
      return answer instanceof Response ? answer : pageResponse(layout(answer, viewer))
    } catch (error) {
      if (error instanceof HttpProblem) return problemResponse(error, viewer)
      throw error
    }
  }
}
