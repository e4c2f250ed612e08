import { expect, test } from 'bun:test'
import fc from 'fast-check'
import type { Page } from 'playwright-core'
import { PEOPLE } from '../support/oidc-provider.ts'
import { localContext, signInAtProvider, ssoPerFile } from '../support/served-sso.ts'

// What single sign-on refuses, driven in Chromium against the real provider: an answer whose
// state was altered, an authorization code used twice, an ID token for another nonce, and any
// answer at all that is not the provider's own. (access.test.ts: when access ends.)

// The fuzz below starts many sign-ins from one address.
const served = ssoPerFile({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '1000000' })

const sessions = async () => (await served.h.sql`select 1 from dashboard_sessions`).length
const refusals = () =>
  served.h.logs
    .filter((line) => line.msg === 'single sign-on refused')
    .map((line) => String(line.error))

/**
 * Starts a sign-in in the browser's context, as its link would (the transaction cookie lands in
 * the context), and answers the provider's authorization URL instead of following it.
 */
async function authorizationUrl(page: Page): Promise<URL> {
  const start = await page.request.get(`${served.base}/ui/sign-in/sso`, { maxRedirects: 0 })
  expect(start.status()).toBe(303)
  return new URL(start.headers().location as string)
}

/**
 * Signs in at the provider in the browser, but takes the provider's answer (the redirect to the
 * callback, with its code and state) before the browser follows it: redirects are followed by
 * hand, in the browser's context (its cookies), from the login form's post on.
 */
async function answerOfProvider(page: Page, who: 'alice' | 'victor'): Promise<URL> {
  await page.goto((await authorizationUrl(page)).href)
  await page.waitForURL((url) => url.hostname === '127.0.0.1')
  const action = new URL((await page.locator('form').getAttribute('action')) ?? '', page.url())
  let response = await page.request.post(action.href, {
    form: { login: who, password: PEOPLE[who].password },
    maxRedirects: 0,
  })
  let location = new URL(response.headers().location ?? '', action)
  while (location.origin !== served.base) {
    response = await page.request.get(location.href, { maxRedirects: 0 })
    location = new URL(response.headers().location ?? '', location)
  }
  expect(location.pathname).toBe('/ui/sign-in/callback')
  return location
}

/** Opens a callback URL by hand, as a person (or an attacker) pasting it would. */
async function openCallback(page: Page, url: URL) {
  const response = await page.goto(url.href)
  return { status: response?.status(), alert: await page.getByRole('alert').textContent() }
}

test('an answer with a tampered state is refused before its code is redeemed', async () => {
  const context = await localContext(served.browser)
  const page = await context.newPage()
  const answer = await answerOfProvider(page, 'victor')
  const before = await sessions()
  const tampered = new URL(answer)
  tampered.searchParams.set('state', `x${answer.searchParams.get('state')?.slice(1)}`)
  expect(await openCallback(page, tampered)).toMatchObject({
    status: 400,
    alert: expect.stringContaining('failed a check'),
  })
  expect(refusals().at(-1)).toContain('state')
  expect(await sessions()).toBe(before)
  // The sign-in it belonged to is spent: the genuine answer is refused now too.
  expect((await openCallback(page, answer)).status).toBe(400)
  expect(await sessions()).toBe(before)
  await context.close()
}, 30_000)

test('a replayed authorization code is refused, with or without a sign-in under way', async () => {
  const context = await localContext(served.browser)
  const page = await context.newPage()
  const answers: URL[] = []
  context.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === '/ui/sign-in/callback') answers.push(url)
  })
  await page.goto(`${served.base}/ui/sign-in`)
  await page.getByRole('link', { name: 'Sign in with Test provider' }).click()
  await signInAtProvider(page, 'victor')
  await page.waitForURL((url) => url.origin === served.base && url.pathname === '/ui')
  const [used] = answers
  if (!used) throw new Error('the callback was not seen')
  const before = await sessions()

  // The same answer again, in the same browser: its sign-in was taken by the first use.
  expect(await openCallback(page, used)).toMatchObject({
    status: 400,
    alert: expect.stringContaining('already used'),
  })
  // In another browser with a sign-in of its own under way: its state passes, the code does not.
  const other = await localContext(served.browser)
  const attacker = await other.newPage()
  const state = (await authorizationUrl(attacker)).searchParams.get('state') ?? ''
  const replay = new URL(used)
  replay.searchParams.set('state', state)
  expect(await openCallback(attacker, replay)).toMatchObject({
    status: 400,
    alert: expect.stringContaining('failed a check'),
  })
  expect(refusals().at(-1)).toContain('invalid_grant')
  expect(await sessions()).toBe(before)
  await other.close()
  await context.close()
}, 30_000)

test('an ID token carrying another nonce is refused', async () => {
  const context = await localContext(served.browser)
  const page = await context.newPage()
  const before = await sessions()
  // The authorization request reaches the provider with its nonce swapped for another.
  const altered = await authorizationUrl(page)
  altered.searchParams.set('nonce', 'a-nonce-shiplog-never-issued')
  await page.goto(altered.href)
  await signInAtProvider(page, 'victor')
  await page.waitForURL(
    (url) => url.origin === served.base && url.pathname === '/ui/sign-in/callback',
  )
  expect(await page.getByRole('alert').textContent()).toContain('failed a check')
  expect(refusals().at(-1)).toContain('nonce')
  expect(await sessions()).toBe(before)
  await context.close()
}, 30_000)

// What may arrive at the callback: the parameters a provider sends, with any value.
const answers = fc.array(
  fc.tuple(
    fc.constantFrom('code', 'state', 'iss', 'error', 'error_description', 'session_state', 'x'),
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('', '%00', 'access_denied'),
    ),
  ),
  { maxLength: 6 },
)

test('property: any answer at the callback of a sign-in under way is refused with a 400 page', async () => {
  const before = await sessions()
  await fc.assert(
    fc.asyncProperty(answers, fc.boolean(), async (entries, withState) => {
      const start = await served.h.api.fetch(new Request(`${served.base}/ui/sign-in/sso`))
      const transaction = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
      // Half the time with the sign-in's own state and the provider's issuer, so a forged code
      // reaches the provider's token endpoint.
      const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? ''
      const genuine = [
        ['state', state],
        ['iss', served.provider.issuer],
      ]
      const query = new URLSearchParams([...entries, ...(withState ? genuine : [])])
      const response = await served.h.api.fetch(
        new Request(`${served.base}/ui/sign-in/callback?${query}`, {
          headers: { cookie: transaction },
        }),
      )
      expect({ query: String(query), status: response.status }).toEqual({
        query: String(query),
        status: 400,
      })
      expect(await response.text()).toContain('role="alert"')
    }),
    { numRuns: 60 },
  )
  expect(refusals().some((refusal) => refusal.startsWith('invalid_grant'))).toBe(true)
  expect(await sessions()).toBe(before)
  expect(served.h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
}, 120_000)
