import { expect, test } from 'bun:test'
import { loadApiEnv } from '../../src/env.ts'
import { wireApi } from '../../src/wiring.ts'
import { localContext, signInAs, ssoEnv, ssoPerFile } from '../support/served-sso.ts'

// When access to the dashboard ends or is held back: a person the role mapping no longer names,
// key sign-in turned off, too many sign-ins from one address, and the provider down (Chromium,
// the real provider).

const served = ssoPerFile()

/** Another API replica on the same database, configured otherwise: a rollout of new settings. */
async function reconfigured(settings: Record<string, string>) {
  const env = loadApiEnv({
    DATABASE_URL: served.h.databaseUrl,
    ...ssoEnv(served.provider.issuer, served.base),
    ...settings,
  })
  const api = wireApi(env, () => {})
  return {
    fetch: (path: string, init: RequestInit = {}) =>
      api.fetch(new Request(served.base + path, init)),
    close: () => api.shutdown(async () => {}),
  }
}

test('a person removed from the role mapping loses access at their next request', async () => {
  const context = await localContext(served.browser)
  await signInAs(context, served.base, 'victor')
  const session = (await context.cookies()).find((cookie) => cookie.name === 'shiplog_session')
  const cookie = `shiplog_session=${session?.value}`
  const replica = await reconfigured({ OIDC_ROLE_MAPPING: 'group:shiplog-admins=acme:admin' })
  try {
    const response = await replica.fetch('/ui', { headers: { cookie } })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/ui/sign-in?next=%2Fui&lost=1')
    const page = await replica.fetch('/ui/sign-in?lost=1')
    expect(await page.text()).toContain('your access to this workspace was removed')
    // The session is gone, not merely refused: the old settings would not bring it back.
    const again = await served.h.api.fetch(
      new Request(`${served.base}/ui`, { headers: { cookie } }),
    )
    expect(again.status).toBe(303)
  } finally {
    await replica.close()
    await context.close()
  }
}, 30_000)

test('with key sign-in turned off the key form is gone, a key is refused, key sessions end', async () => {
  const { key } = await served.h.createKey({ scopes: ['read'] })
  const signIn = await served.h.api.fetch(
    new Request(`${served.base}/ui/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key, next: '/ui' }),
    }),
  )
  expect(signIn.status).toBe(303)
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const replica = await reconfigured({ DASHBOARD_KEY_SIGN_IN: 'false' })
  try {
    const page = await (await replica.fetch('/ui/sign-in')).text()
    expect(page).toContain('Sign in with Test provider')
    expect(page).not.toContain('name="key"')
    const refused = await replica.fetch('/ui/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key, next: '/ui' }),
    })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('set-cookie')).toBeNull()
    const lost = await replica.fetch('/ui', { headers: { cookie } })
    expect(lost.headers.get('location')).toContain('lost=1')
    // The API itself still takes the key.
    expect(
      (await replica.fetch('/v1/deployments', { headers: { authorization: `Bearer ${key}` } }))
        .status,
    ).toBe(200)
  } finally {
    await replica.close()
  }
}, 30_000)

test('starting sign-ins spends the address budget: past it, a 429 page with Retry-After', async () => {
  const replica = await reconfigured({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '2' })
  try {
    const statuses: number[] = []
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await replica.fetch('/ui/sign-in/sso')
      statuses.push(response.status)
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
        expect(await response.text()).toContain('Too many sign-ins started from this address')
      }
    }
    expect(statuses).toEqual([303, 303, 429])
  } finally {
    await replica.close()
  }
}, 30_000)

test('with the provider down, signing in is a clear 503 page; pages and the API keep working', async () => {
  const context = await localContext(served.browser)
  const signedIn = await signInAs(context, served.base, 'alice')
  await served.provider.stop()

  const page = await context.newPage()
  await page.goto(`${served.base}/ui/sign-in`)
  // A person already signed in is sent on; a new browser gets the sign-in page.
  expect(new URL(page.url()).pathname).toBe('/ui')
  const stranger = await localContext(served.browser)
  const visitor = await stranger.newPage()
  await visitor.goto(`${served.base}/ui/sign-in`)
  const [answer] = await Promise.all([
    visitor.waitForResponse((response) => new URL(response.url()).pathname === '/ui/sign-in/sso'),
    visitor.getByRole('link', { name: 'Sign in with Test provider' }).click(),
  ])
  expect(answer.status()).toBe(503)
  expect(answer.headers()['retry-after']).toBe('30')
  expect(await visitor.getByRole('alert').textContent()).toContain(
    'The identity provider cannot be reached',
  )
  // Signed-in people go on reading; pipelines go on posting and reading with their keys.
  await signedIn.goto(`${served.base}/ui/deployments`)
  expect(await signedIn.getByRole('heading', { level: 1 }).textContent()).toBe('Deployments')
  expect((await served.h.get('/v1/deployments')).status).toBe(200)
  expect(served.h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
  await stranger.close()
  await context.close()
}, 30_000)
