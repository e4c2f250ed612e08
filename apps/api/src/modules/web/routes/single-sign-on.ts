// Single sign-on: `/ui/sign-in/sso` sends the browser to the OpenID provider, whose answer comes
// back to `/ui/sign-in/callback`. Between the two, the browser holds only a reference to the
// sign-in under way (a Lax cookie: it must come back on the provider's redirect, a cross-site
// navigation), and the server holds its state, nonce and PKCE verifier.
import { upsertPerson } from '@shiplog/db/queries/people'
import {
  createSignInTransaction,
  takeSignInTransaction,
} from '@shiplog/db/queries/sign-in-transactions'
import { ensureWorkspace } from '@shiplog/db/queries/workspaces'
import { Elysia } from 'elysia'
import { type OidcClient, ProviderUnavailable, SignInRefused } from '../../access/oidc-client.ts'
import { accessOf, emailAllowed } from '../../access/role-mapping.ts'
import type { WebDeps } from '../deps.ts'
import { principalOf } from '../principal.ts'
import { pageResponse, redirect, redirectToProvider } from '../responses.ts'
import { safeRedirectTarget } from '../safe-redirect.ts'
import {
  cookieTokenOf,
  newToken,
  sessionCookie,
  sessionOf,
  startSession,
  tokenCookie,
  tokenHash,
} from '../session.ts'
import { layout } from '../views/layout.ts'
import { signedInPage } from '../views/sign-in.ts'
import { signInResponse } from './sign-in.ts'

/** Long enough to type a password and answer a second factor at the provider. */
const TRANSACTION_SECONDS = 10 * 60
const TRANSACTION_COOKIE = {
  name: 'shiplog_sign_in',
  path: '/ui/sign-in',
  sameSite: 'Lax',
  maxAge: TRANSACTION_SECONDS,
} as const

const UNAVAILABLE =
  'The identity provider cannot be reached right now, so nobody can sign in through it: try again in a minute. Pipelines and API keys are not affected.'

/** `/ui/sign-in/sso` and its callback, when single sign-on is configured. */
export function singleSignOnPages(deps: WebDeps) {
  const oidc = deps.oidc
  if (!oidc) return new Elysia()
  const log = deps.log
  const unavailable = (request: Request, error: unknown) => {
    log({ level: 'warn', msg: 'identity provider unavailable', error: String(error) })
    return signInResponse(deps, { next: '/ui', error: UNAVAILABLE }, 503, {
      'retry-after': '30',
      'set-cookie': tokenCookie(request, TRANSACTION_COOKIE, null),
    })
  }

  return new Elysia()
    .get('/ui/sign-in/sso', async ({ request, server }) => {
      const next = safeRedirectTarget(new URL(request.url).searchParams.get('next'))
      const session = await sessionOf(deps.sql, request)
      if (session && principalOf(session, deps.signIn)) return redirect(next)
      // Each start stores a sign-in and asks the provider: it spends the address's sign-in
      // budget (as a wrong key does), given back when the sign-in completes.
      const decision = deps.signInAttempts.take(deps.clientAddress(request, server))
      if (!decision.allowed) {
        const wait = String(decision.retryAfterSeconds)
        const error = `Too many sign-ins started from this address: wait ${wait} s.`
        return signInResponse(deps, { next, error }, 429, { 'retry-after': wait })
      }
      try {
        const { secrets, url } = await oidc.begin()
        const token = newToken()
        await createSignInTransaction(
          deps.sql,
          tokenHash(token),
          { ...secrets, next },
          TRANSACTION_SECONDS,
        )
        return redirectToProvider(url, {
          'set-cookie': tokenCookie(request, TRANSACTION_COOKIE, token),
        })
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unavailable(request, error)
        throw error
      }
    })
    .get('/ui/sign-in/callback', async ({ request, server }) => {
      const refuse = (error: string, status: number) =>
        signInResponse(deps, { next: '/ui', error }, status, {
          'set-cookie': tokenCookie(request, TRANSACTION_COOKIE, null),
        })
      const token = cookieTokenOf(request, TRANSACTION_COOKIE.name)
      const transaction = token && (await takeSignInTransaction(deps.sql, tokenHash(token)))
      if (!transaction) {
        return refuse(
          'This sign-in was not started in this browser, has expired, or was already used: sign in again.',
          400,
        )
      }
      try {
        const identity = await oidc.finish(new URL(request.url), transaction)
        deps.signInAttempts.giveBack(deps.clientAddress(request, server))
        return await signInPerson(deps, oidc, request, identity, transaction.next, refuse)
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unavailable(request, error)
        if (!(error instanceof SignInRefused)) throw error
        log({ level: 'warn', msg: 'single sign-on refused', error: error.message })
        return refuse(
          "The identity provider's answer failed a check (it may have been altered or replayed): sign in again.",
          400,
        )
      }
    })
}

/** Opens a session for a person the provider vouched for, in the first workspace they may use. */
async function signInPerson(
  deps: WebDeps,
  oidc: OidcClient,
  request: Request,
  identity: Awaited<ReturnType<OidcClient['finish']>>,
  next: string,
  refuse: (error: string, status: number) => Response,
): Promise<Response> {
  const { rules, allowedDomains } = oidc.settings
  if (!emailAllowed(identity, allowedDomains)) {
    return refuse(
      `Your account (${identity.email ?? 'no verified email'}) is not of a domain allowed to sign in here.`,
      403,
    )
  }
  const access = accessOf(rules, allowedDomains, identity)
  const [workspace] = [...access.keys()].sort()
  if (!workspace) {
    return refuse(
      `You are signed in at the identity provider as ${identity.email ?? identity.subject}, but no workspace is mapped to your groups or email: ask whoever runs Shiplog to add you to OIDC_ROLE_MAPPING.`,
      403,
    )
  }
  const person = await upsertPerson(deps.sql, identity)
  const { id: workspaceId } = await ensureWorkspace(deps.sql, workspace)
  const token = await startSession(deps.sql, {
    personId: person.id,
    workspaceId,
    idToken: identity.idToken,
  })
  // A page, not a redirect: this response answers a navigation that came from the provider's
  // site, and so would a redirect's next request, which would leave the Strict session cookie
  // at home. The page's own refresh is a navigation from this site, and carries it.
  return pageResponse(layout(signedInPage(next)), 200, [
    ['set-cookie', sessionCookie(request, token)],
    ['set-cookie', tokenCookie(request, TRANSACTION_COOKIE, null)],
  ])
}
