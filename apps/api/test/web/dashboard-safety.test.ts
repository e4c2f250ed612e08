import { afterAll, beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import type { Browser } from 'playwright-core'
import { newAccessibilityContext, seriousAccessibilityViolations } from '../support/browser.ts'
import type { Harness } from '../support/harness.ts'
import {
  LEGACY_APP,
  RTL_APP,
  type SeededDashboard,
  seedDashboard,
} from '../support/seeded-dashboard.ts'

// The dashboard's safety, in Chromium: isolated user text, refused cross-site posts, revoked keys, accessibility.

let dashboard: SeededDashboard
let h: Harness
let base: string
let browser: Browser
let admin: string
let writer: string
let signIn: SeededDashboard['signIn']

beforeAll(async () => {
  dashboard = await seedDashboard()
  ;({ h, base, browser, admin, writer, signIn } = dashboard)
}, 60_000)

afterAll(() => dashboard?.close())

test('what users wrote is isolated on every page: a stored U+202E reverses nothing around it', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, admin, '/ui')
  const [legacy] = await h.sql<{ id: string }[]>`
    select d.id from deployments d join applications a on a.id = d.application_id
     where a.name = ${LEGACY_APP}`
  const opened = await page.request.post(`${base}/v1/incidents`, {
    headers: { authorization: `Bearer ${admin}` },
    data: { environment: 'staging', title: 'Down \u202Eevil', app: RTL_APP },
  })
  expect(opened.status()).toBe(201)
  const pages = [
    '/ui',
    '/ui/deployments?environment=staging',
    `/ui/deployments/${legacy?.id}`,
    '/ui/incidents',
    `/ui/dora?environment=staging&app=${encodeURIComponent(RTL_APP)}`,
  ]
  for (const path of pages) {
    await page.goto(base + path)
    // Every text of the page that holds the override sits in a <bdi> (or an option of its own).
    const bare = await page.evaluate(() => {
      const main = document.querySelector('main') as HTMLElement
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT)
      const found: string[] = []
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const isolated = node.parentElement?.closest('bdi, option[dir="auto"]')
        if (node.textContent?.includes('\u202E') && !isolated) found.push(node.textContent)
      }
      return found
    })
    expect({ path, bare }).toEqual({ path, bare: [] })
    expect(await page.locator('main bdi').filter({ hasText: 'evil' }).count()).toBeGreaterThan(0)
  }
  // On the deployment's page: version and environment still read left to right after the name.
  await page.goto(`${base}/ui/deployments/${legacy?.id}`)
  const [app, version, environment] = await page
    .locator('h1 bdi')
    .evaluateAll((all) => all.map((each) => each.getBoundingClientRect().left))
  expect(app).toBeLessThan(version as number)
  expect(version).toBeLessThan(environment as number)
  expect(await page.title()).toBe(`\u2068${LEGACY_APP}\u2069 \u20689.9.9\u2069 · Shiplog`)
  await context.close()
}, 60_000)

test('a form posted from elsewhere is refused, and signing out closes the pages', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, admin, '/ui/incidents')
  // The session cookie with a wrong CSRF token: refused, nothing opened.
  const forged = await page.request.post(`${base}/ui/incidents`, {
    form: { csrf: 'forged', title: 'Forged', environment: 'production' },
  })
  expect(forged.status()).toBe(403)
  expect(await h.sql`select 1 from incidents where title = 'Forged'`).toHaveLength(0)

  const sessions = async () => (await h.sql`select 1 from dashboard_sessions`).length
  const before = await sessions()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL((url) => url.pathname === '/ui/sign-in')
  expect(await sessions()).toBe(before - 1)
  expect(await context.cookies()).toEqual([])
  await page.goto(`${base}/ui/deployments`)
  expect(new URL(page.url()).pathname).toBe('/ui/sign-in')
  await context.close()
}, 30_000)

test('a key that cannot read is refused at sign-in; a revoked key ends its sessions', async () => {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${base}/ui/sign-in`)
  await page.getByLabel('API key with the read scope').fill(writer)
  await page.getByRole('button', { name: 'Sign in' }).click()
  expect(await page.getByRole('alert').textContent()).toContain('use a key with the read scope')

  const revocable = await issueApiKey(h.sql, {
    workspace: 'acme',
    name: 'short-lived',
    scopes: ['read'],
  })
  const signedIn = await signIn(context, revocable.key)
  expect(new URL(signedIn.url()).pathname).toBe('/ui')
  await h.sql`update api_keys set revoked_at = now() where name = 'short-lived'`
  await signedIn.goto(`${base}/ui`)
  expect(new URL(signedIn.url()).pathname).toBe('/ui/sign-in')
  await context.close()
}, 30_000)

test('no page has a serious or critical accessibility violation', async () => {
  const context = await newAccessibilityContext(browser)
  const page = await signIn(context, admin)
  const [deployment] = await h.sql<{ id: string }[]>`select id from deployments limit 1`
  const found: Record<string, string[]> = {}
  for (const path of [
    '/ui',
    '/ui/deployments',
    `/ui/deployments/${deployment?.id}`,
    '/ui/dora?environment=production',
    '/ui/incidents',
    // A problem page: an unknown deployment.
    '/ui/deployments/00000000-0000-4000-8000-000000000000',
  ]) {
    await page.goto(base + path)
    found[path] = await seriousAccessibilityViolations(page)
  }
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL((url) => url.pathname === '/ui/sign-in')
  found['/ui/sign-in'] = await seriousAccessibilityViolations(page)
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((path) => [path, []])))
  await context.close()
}, 60_000)
