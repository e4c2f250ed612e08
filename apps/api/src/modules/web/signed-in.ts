import type { Sql } from '@shiplog/db/client'
import type { DashboardSession } from '@shiplog/db/queries/dashboard-sessions'
import type { PgBoss } from '@shiplog/db/queue'
import { allows } from '@shiplog/schema'
import type { ClientAddress, KeyLookup } from '../../plugins/auth/index.ts'
import { HttpProblem, problems } from '../../plugins/problem/index.ts'
import type { AddressLimiter } from '../../plugins/rate-limit/address-limiter.ts'
import type { ReadSlots } from '../../plugins/rate-limit/read-slots.ts'
import { formOf } from './form.ts'
import { html } from './html.ts'
import { layout, type PageContent, pageResponse, type Viewer } from './layout.ts'
import { csrfMatches, sameOrigin, sessionOf } from './session.ts'

/** What the dashboard needs of the app: the databases, the queue, the keys, the limits. */
export interface WebDeps {
  sql: Sql
  readSql: Sql
  boss: PgBoss
  keys: KeyLookup
  signInAttempts: AddressLimiter
  clientAddress: ClientAddress
  reads: ReadSlots
}

/** A deployment or incident id as the pages' paths carry it. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, {
    status: 303,
    headers: { location, 'cache-control': 'no-store', ...headers },
  })

/** A page answering a problem (404, 422…) as HTML, with its detail. */
function problemPage(problem: HttpProblem, viewer?: Viewer): Response {
  const page: PageContent = {
    title: problem.title,
    body: html`<h1>${problem.title}</h1>
<div class="notice error" role="alert">${
      problem.errors?.length
        ? html`<ul>${problem.errors.map((error) => html`<li><strong>${error.field}</strong> ${error.message}</li>`)}</ul>`
        : html`<p>${problem.detail}</p>`
    }</div>
<p><a href="/ui">Back to the overview</a></p>`,
  }
  return pageResponse(layout(page, viewer), problem.status, problem.headers)
}

/** A signed-in request: its session, and how its page is answered. */
export interface PageRequest {
  request: Request
  url: URL
  session: DashboardSession
  viewer: Viewer
  /** A post's fields (its CSRF token checked); empty for a GET. */
  form: URLSearchParams
}

/** Runs a page handler for a signed-in person; sends anyone else to sign in, then back here. */
export function signedIn(
  deps: WebDeps,
  handler: (page: PageRequest) => Promise<Response | PageContent>,
) {
  return async ({ request }: { request: Request }): Promise<Response> => {
    const url = new URL(request.url)
    const session = await sessionOf(deps.sql, request)
    if (!session || !allows(session.owner.scopes, 'read')) {
      if (request.method !== 'GET') return redirect('/ui/sign-in')
      return redirect(`/ui/sign-in?${new URLSearchParams({ next: url.pathname + url.search })}`)
    }
    const viewer = { owner: session.owner, csrfToken: session.csrfToken }
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
      const answer = await handler({ request, url, session, viewer, form })
      return answer instanceof Response ? answer : pageResponse(layout(answer, viewer))
    } catch (error) {
      if (error instanceof HttpProblem) return problemPage(error, viewer)
      throw error
    }
  }
}
