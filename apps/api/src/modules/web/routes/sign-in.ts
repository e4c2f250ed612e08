import { allows } from '@shiplog/schema'
import { Elysia } from 'elysia'
import type { WebDeps } from '../deps.ts'
import { formOf } from '../page-input.ts'
import { principalOf } from '../principal.ts'
import { pageResponse, redirect } from '../responses.ts'
import { safeRedirectTarget } from '../safe-redirect.ts'
import { endSession, sameOrigin, sessionCookie, sessionOf, startSession } from '../session.ts'
import type { SignedInPages } from '../signed-in.ts'
import { layout } from '../views/layout.ts'
import { type SignInOptions, signedOutPage, signInPage } from '../views/sign-in.ts'

/** The sign-in page as this install offers it, with a status, an error or a notice. */
export function signInResponse(
  web: WebDeps,
  options: Omit<SignInOptions, 'keys' | 'provider'>,
  status = 200,
  headers: Record<string, string> = {},
) {
  const provider = web.oidc?.settings.providerName
  const offered = { ...options, keys: web.signIn.keys, ...(provider ? { provider } : {}) }
  return pageResponse(layout(signInPage(offered)), status, headers)
}

// Why a person is on the sign-in page, from the flags pages send them with (never free text).
function noticeOf(url: URL): Pick<SignInOptions, 'error' | 'notice'> {
  if (url.searchParams.has('lost')) {
    return {
      error:
        'Your session has ended: your access to this workspace was removed, or this way of signing in was turned off.',
    }
  }
  if (url.searchParams.has('signed-out')) return { notice: 'You are signed out.' }
  return {}
}

/** `/ui/sign-in` and `/ui/sign-out`: the page, a read key exchanged for a session, signing out. */
export function signInPages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .get('/ui/sign-in', async ({ request, web }) => {
      const url = new URL(request.url)
      const next = safeRedirectTarget(url.searchParams.get('next'))
      const session = await sessionOf(web.sql, request)
      if (session && principalOf(session, web.signIn)) return redirect(next)
      return signInResponse(web, { next, ...noticeOf(url) })
    })
    .post(
      '/ui/sign-in',
      async ({ request, server, web }) => {
        const form = await formOf(request).catch(() => new URLSearchParams())
        // Where to go once signed in, settled before anything is stored.
        const next = safeRedirectTarget(form.get('next'))
        const refuse = (error: string, status: number, headers: Record<string, string> = {}) =>
          signInResponse(web, { next, error }, status, headers)
        if (!web.signIn.keys) return refuse('Signing in with an API key is turned off here.', 403)
        if (!sameOrigin(request)) return refuse('Sign in from this page.', 403)
        const address = web.clientAddress(request, server)
        const decision = web.signInAttempts.take(address)
        if (!decision.allowed) {
          const wait = String(decision.retryAfterSeconds)
          return refuse(`Too many attempts from this address: wait ${wait} s.`, 429, {
            'retry-after': wait,
          })
        }
        const key = (form.get('key') ?? '').trim()
        const owner = key ? await web.keys.verify(key) : undefined
        if (!owner) return refuse('This key is not valid: it is unknown, revoked or mistyped.', 401)
        web.signInAttempts.giveBack(address)
        if (!allows(owner.scopes, 'read')) {
          return refuse(
            `This key cannot read (its scopes: ${owner.scopes.join(', ')}): use a key with the read scope.`,
            403,
          )
        }
        const token = await startSession(web.sql, { apiKeyId: owner.keyId })
        return redirect(next, { 'set-cookie': sessionCookie(request, token) })
      },
      { parse: 'none' },
    )
    .post(
      '/ui/sign-out',
      async ({ page: { request, session }, web }) => {
        await endSession(web.sql, request)
        const cleared = { 'set-cookie': sessionCookie(request, null) }
        // A person is signed out at the provider too, when it says how (RP-initiated logout).
        const atProvider =
          session.kind === 'person' ? web.oidc?.endSessionUrl(session.idToken) : undefined
        if (!atProvider || !web.oidc) return redirect('/ui/sign-in?signed-out=1', cleared)
        const page = signedOutPage(web.oidc.settings.providerName, atProvider.href)
        return pageResponse(layout(page), 200, cleared)
      },
      // Checked as every form is (signedIn): only the session's own form, from its own pages,
      // ends it and clears the cookie; any other post is a 403 that clears nothing.
      { signedIn: true, parse: 'none' },
    )
}
