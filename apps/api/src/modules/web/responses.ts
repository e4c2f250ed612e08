// How the dashboard answers a browser: a page, a problem shown as a page, or a redirect.
import type { HttpProblem } from '../../kernel/problems.ts'
import { safeRedirectTarget } from './safe-redirect.ts'
import type { Html } from './views/html.ts'
import { layout, type Viewer } from './views/layout.ts'
import { problemPage } from './views/problem.ts'

// Nothing but our own stylesheet loads, no script runs inline, no page frames ours, and forms
// post only here. Same-origin fetches are allowed (connect-src): crawlers and audits such as
// Lighthouse read /robots.txt from within the page.
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

/** Response headers: a record, or pairs when a name repeats (two `set-cookie`). */
export type PageHeaders = Record<string, string> | [string, string][]

/** A complete HTML response for a page. */
export function pageResponse(document: Html, status = 200, headers: PageHeaders = {}) {
  const all = new Headers({
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  })
  for (const [name, value] of Array.isArray(headers) ? headers : Object.entries(headers)) {
    if (name.toLowerCase() === 'set-cookie') all.append(name, value)
    else all.set(name, value)
  }
  return new Response(document.text, { status, headers: all })
}

/** A problem (404, 422…) answered as a page with its status and headers. */
export function problemPageResponse(problem: HttpProblem, viewer?: Viewer): Response {
  return pageResponse(layout(problemPage(problem), viewer), problem.status, problem.headers)
}

/**
 * Sends the browser on to `location` with a GET (303), whatever the request's method: a page of
 * the dashboard, or `/ui` for anything else (`safeRedirectTarget`).
 */
export const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, {
    status: 303,
    headers: { location: safeRedirectTarget(location), 'cache-control': 'no-store', ...headers },
  })

/**
 * Sends the browser to the identity provider's authorization endpoint: the one redirect that
 * leaves the dashboard, to an address built from the provider's discovered metadata and never
 * from anything a request carries.
 */
export const redirectToProvider = (authorization: URL, headers: Record<string, string> = {}) =>
  new Response(null, {
    status: 303,
    headers: { location: authorization.href, 'cache-control': 'no-store', ...headers },
  })
