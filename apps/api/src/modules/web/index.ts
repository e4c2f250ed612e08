import { allows } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { SCRIPT_PATH, STYLESHEET_PATH, scriptResponse, stylesheetResponse } from './assets.ts'
import { formOf } from './form.ts'
import { layout, pageResponse } from './layout.ts'
import { dashboardPages } from './pages/routes.ts'
import { signInPage } from './pages/sign-in.ts'
import {
  csrfMatches,
  endSession,
  sameOrigin,
  sessionCookie,
  sessionOf,
  startSession,
} from './session.ts'
import { redirect, type WebDeps } from './signed-in.ts'

export type { WebDeps } from './signed-in.ts'

// Only our own pages: an absolute or protocol-relative `next` would send the person elsewhere.
const safeNext = (next: string | null | undefined) =>
  next && /^\/ui(\/|\?|$)/.test(next) && !next.startsWith('//') ? next : '/ui'

/** The dashboard for people: server-rendered pages under /ui, signed in with a read key. */
export function webRoutes(deps: WebDeps) {
  return new Elysia()
    .get('/', () => redirect('/ui'))
    .get(STYLESHEET_PATH, () => stylesheetResponse())
    .get(SCRIPT_PATH, () => scriptResponse())
    .get('/ui/sign-in', async ({ request }) => {
      const next = safeNext(new URL(request.url).searchParams.get('next'))
      if (await sessionOf(deps.sql, request)) return redirect(next)
      return pageResponse(layout(signInPage({ next })))
    })
    .post(
      '/ui/sign-in',
      async ({ request, server }) => {
        const form = await formOf(request).catch(() => new URLSearchParams())
        const next = safeNext(form.get('next'))
        const refuse = (error: string, status: number, headers: Record<string, string> = {}) =>
          pageResponse(layout(signInPage({ next, error })), status, headers)
        if (!sameOrigin(request)) return refuse('Sign in from this page.', 403)
        const address = deps.clientAddress(request, server)
        const decision = deps.signInAttempts.take(address)
        if (!decision.allowed) {
          const wait = String(decision.retryAfterSeconds)
          return refuse(`Too many attempts from this address: wait ${wait} s.`, 429, {
            'retry-after': wait,
          })
        }
        const key = (form.get('key') ?? '').trim()
        const owner = key ? await deps.keys.verify(key) : undefined
        if (!owner) return refuse('This key is not valid: it is unknown, revoked or mistyped.', 401)
        deps.signInAttempts.giveBack(address)
        if (!allows(owner.scopes, 'read')) {
          return refuse(
            `This key cannot read (its scopes: ${owner.scopes.join(', ')}): use a key with the read scope.`,
            403,
          )
        }
        const token = await startSession(deps.sql, owner.keyId)
        return redirect(next, { 'set-cookie': sessionCookie(request, token) })
      },
      { parse: 'none' },
    )
    .post(
      '/ui/sign-out',
      async ({ request }) => {
        const session = await sessionOf(deps.sql, request)
        const form = await formOf(request).catch(() => new URLSearchParams())
        // Only the session's own form may end it; a forged post leaves it alone.
        if (session && sameOrigin(request) && csrfMatches(session, form.get('csrf') ?? undefined)) {
          await endSession(deps.sql, request)
        }
        return redirect('/ui/sign-in', { 'set-cookie': sessionCookie(request, null) })
      },
      { parse: 'none' },
    )
    .use(dashboardPages(deps))
}
