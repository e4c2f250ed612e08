import { afterAll, beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import fc from 'fast-check'
import type { Harness } from '../support/harness.ts'
import { type ServedDashboard, serveDashboard, signIn } from '../support/served-dashboard.ts'

// Where a sign-in sends the browser next, and what a sign-out post from elsewhere may do: a
// `next` a Location header cannot carry, or one leading off the site, is never a 5xx, never a
// redirect elsewhere, and never leaves a session row behind without its redirect; a sign-out
// that fails the form check signs nobody out.

let dashboard: ServedDashboard
let h: Harness
let base: string
let reader: string
beforeAll(async () => {
  dashboard = await serveDashboard()
  ;({ h, base } = dashboard)
  reader = (await issueApiKey(h.sql, { workspace: 'acme', name: 'reader', scopes: ['read'] })).key
}, 60_000)
afterAll(() => dashboard?.close())

const ui = (path: string, init: RequestInit = {}) =>
  h.api.fetch(new Request(`http://shiplog.test${path}`, init))
const sessions = async () =>
  ((await h.sql<{ count: number }[]>`select count(*)::int as count from dashboard_sessions`)[0]
    ?.count ?? 0) as number
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
})
/** A page of this site: `/ui`, a path under it, or its query; never `//host` or `/\host`. */
const SAME_SITE = /^\/ui(\/[^/\\]|\/?$|\?)/

const HOSTILE = [
  '/ui\r\nSet-Cookie: stolen=1',
  '/ui/\r\n',
  '/ui/deployments\n',
  '/ui/\u2028',
  '/ui/\u2029x',
  '/ui/\u0100',
  '/ui/\u00ff\u0100',
  '/ui/deployments?app=\u{10FFFF}',
  '/ui?x=\uFFFF',
  '//evil.example',
  '//evil.example/ui',
  '\\evil.example',
  '/\\evil.example',
  '/ui/..//evil.example',
  '/ui/../../evil',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'https://evil.example/ui',
  'ui',
]
const aboveLatin1 = fc
  .integer({ min: 0x100, max: 0x10ffff })
  .filter((c) => c < 0xd800 || c > 0xdfff)
  .map((c) => `/ui/deployments?app=${String.fromCodePoint(c)}`)

/** Signs in with `next`: the answer, and how many sessions it stored. */
async function signInWith(next: string) {
  const before = await sessions()
  const response = await ui('/ui/sign-in', form({ key: reader, next }))
  return { response, stored: (await sessions()) - before }
}

test('a sign-in with any next: a redirect to a page of this site and one session, never a 5xx', async () => {
  const nexts = [...HOSTILE, ...fc.sample(aboveLatin1, { numRuns: 40, seed: 30 })]
  for (const next of nexts) {
    const { response, stored } = await signInWith(next)
    const location = response.headers.get('location') ?? ''
    expect({ next, status: response.status, sameSite: SAME_SITE.test(location), stored }).toEqual({
      next,
      status: 303,
      sameSite: true,
      stored: 1,
    })
    expect(response.headers.get('set-cookie')).toContain('shiplog_session=')
  }
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
})

test('a next off the site goes to /ui; one under /ui is kept, percent-encoded', async () => {
  for (const next of [
    '//evil.example',
    '/\\evil.example',
    '/ui/..//evil.example',
    'javascript:x',
  ]) {
    expect((await signInWith(next)).response.headers.get('location')).toBe('/ui')
  }
  const { response } = await signInWith('/ui/deployments?app=café&environment=\u0100')
  expect(response.headers.get('location')).toBe('/ui/deployments?app=caf%C3%A9&environment=%C4%80')
})

test('signed in already, GET /ui/sign-in with any next redirects on this site, never a 5xx', async () => {
  const cookie = (await signInWith('/ui')).response.headers.get('set-cookie')?.split(';')[0] ?? ''
  for (const next of [...HOSTILE, ...fc.sample(aboveLatin1, { numRuns: 20, seed: 31 })]) {
    const response = await ui(`/ui/sign-in?${new URLSearchParams({ next })}`, {
      headers: { cookie },
    })
    const location = response.headers.get('location') ?? ''
    expect({ next, status: response.status, sameSite: SAME_SITE.test(location) }).toEqual({
      next,
      status: 303,
      sameSite: true,
    })
  }
})

test('a sign-out post that fails the check (no token, a wrong one, a foreign Origin) clears nothing', async () => {
  const page = await ui('/ui/sign-in', form({ key: reader, next: '/ui/incidents' }))
  const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? ''
  const incidents = await (await ui('/ui/incidents', { headers: { cookie } })).text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(incidents)?.[1] ?? ''
  const forged = [
    form({}, { cookie }),
    form({ csrf: 'forged' }, { cookie }),
    form({ csrf }, { cookie, origin: 'https://evil.example' }),
  ]
  for (const request of forged) {
    const before = await sessions()
    const response = await ui('/ui/sign-out', request)
    expect({ status: response.status, cookie: response.headers.get('set-cookie') }).toEqual({
      status: 403,
      cookie: null,
    })
    expect(await sessions()).toBe(before)
    expect((await ui('/ui/incidents', { headers: { cookie } })).status).toBe(200)
  }
  const before = await sessions()
  const real = await ui('/ui/sign-out', form({ csrf }, { cookie }))
  expect(real.status).toBe(303)
  expect(real.headers.get('set-cookie')).toContain('Max-Age=0')
  expect(await sessions()).toBe(before - 1)
})

test('Chromium: a page on another origin that posts to /ui/sign-out leaves the browser signed in', async () => {
  // Same site (127.0.0.1), another origin (another port): the browser sends the session cookie
  // with the post, and Origin says where the form came from.
  const evil = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => {
      const token = new URL(request.url).searchParams.get('csrf')
      const field = token === null ? '' : `<input type="hidden" name="csrf" value="${token}">`
      return new Response(
        `<!doctype html><title>Win a prize</title><form method="post" action="${base}/ui/sign-out">${field}<button>Claim</button></form>`,
        { headers: { 'content-type': 'text/html' } },
      )
    },
  })
  const context = await dashboard.browser.newContext()
  try {
    const page = await signIn(context, base, reader, '/ui')
    for (const query of ['', '?csrf=forged']) {
      const trap = await context.newPage()
      await trap.goto(`http://127.0.0.1:${evil.port}/${query}`)
      await trap.getByRole('button', { name: 'Claim' }).click()
      await trap.waitForLoadState()
      await trap.close()
      expect((await context.cookies()).map((cookie) => cookie.name)).toEqual(['shiplog_session'])
      await page.goto(`${base}/ui`)
      expect(new URL(page.url()).pathname).toBe('/ui')
    }
    // Its own button still signs out.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL((url) => url.pathname === '/ui/sign-in')
    expect(await context.cookies()).toEqual([])
  } finally {
    await context.close()
    await evil.stop()
  }
}, 60_000)
