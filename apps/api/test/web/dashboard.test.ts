import { afterAll, beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Harness, validDeployment } from '../harness.ts'
import { newAccessibilityContext, seriousAccessibilityViolations } from './browser.ts'
import { type ServedDashboard, serveDashboard, signIn as signInAt } from './served-dashboard.ts'

// The dashboard end to end: a real Shiplog (API and worker on a fresh database) served on a port,
// driven by Debian's Chromium as a person would use it.

let dashboard: ServedDashboard
let h: Harness
let base: string
let browser: Browser
let reader: string
let admin: string
let writer: string
const HOSTILE_APP = '<script>alert(1)</script>'
const RTL_APP = 'متجر-evil'
// A name stored before names refused bidi controls: the U+202E reverses what follows it, unless
// the page isolates it.
const LEGACY_APP = 'متجر-\u202Eevil'

beforeAll(async () => {
  dashboard = await serveDashboard()
  ;({ h, base, browser } = dashboard)
  const issue = async (name: string, scopes: string[]) =>
    (await issueApiKey(h.sql, { workspace: 'acme', name, scopes: scopes as never })).key
  reader = await issue('reader', ['read'])
  admin = await issue('admin', ['read', 'admin', 'incidents:write'])
  writer = await issue('pipeline', ['deployments:write'])
  const deployments = [
    {
      app: 'checkout',
      environment: 'production',
      version: '1.0.0',
      deployedAt: '2026-05-04T10:00:00Z',
    },
    {
      app: 'checkout',
      environment: 'production',
      version: '1.1.0',
      deployedAt: '2026-05-05T10:00:00Z',
    },
    {
      app: 'checkout',
      environment: 'staging',
      version: '1.2.0',
      deployedAt: '2026-05-06T10:00:00Z',
    },
    {
      app: HOSTILE_APP,
      environment: 'production',
      version: '0.1.0',
      deployedAt: '2026-05-06T11:00:00Z',
    },
    { app: RTL_APP, environment: 'staging', version: '9.9.9', deployedAt: '2026-05-06T12:00:00Z' },
  ]
  for (const [index, deployment] of deployments.entries()) {
    const commitHash = `${index + 1}`.repeat(40)
    const response = await h.post(
      validDeployment({ ...deployment, commitHash, author: 'release-bot' }),
    )
    expect(response.status).toBe(202)
  }
  await h.drain()
  await h.sql`update applications set name = ${LEGACY_APP} where name = ${RTL_APP}`
}, 60_000)

afterAll(() => dashboard?.close())

const signIn = (context: BrowserContext, key: string, path?: string): Promise<Page> =>
  signInAt(context, base, key, path)

test('signing in with a read key opens the overview; the key is in no URL, page or storage', async () => {
  const context = await browser.newContext()
  const visited: string[] = []
  context.on('request', (request) => visited.push(request.url()))
  const page = await signIn(context, reader)
  expect(new URL(page.url()).pathname).toBe('/ui')
  await expect(page.getByRole('heading', { level: 1 })).toBeTruthy()
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('What runs where')
  // The matrix: checkout's latest in production is 1.1.0, in staging 1.2.0.
  const checkout = page.getByRole('row').filter({ hasText: 'checkout' })
  expect(await checkout.locator('td a').allTextContents()).toEqual(['1.2.0', '1.1.0'])
  expect(await checkout.textContent()).toContain('release-bot')
  // Hostile and right-to-left names are text, never markup.
  expect(await page.getByRole('rowheader', { name: HOSTILE_APP }).count()).toBe(1)
  expect(await page.getByText(LEGACY_APP).count()).toBe(1)
  expect(await page.evaluate(() => document.querySelectorAll('main script').length)).toBe(0)

  const [cookie] = await context.cookies()
  expect(cookie).toMatchObject({ name: 'shiplog_session', httpOnly: true, sameSite: 'Strict' })
  expect(cookie?.value).not.toContain(reader)
  expect(visited.some((url) => url.includes(reader))).toBe(false)
  expect(await page.content()).not.toContain(reader)
  expect(
    await page.evaluate(() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage)),
  ).toBe('{}{}')
  await context.close()
}, 30_000)

test('with JavaScript off, every page reads and its filters work', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await signIn(context, reader)
  await page.getByLabel('Repository').selectOption('acme/shop')
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.waitForURL((url) => url.searchParams.get('repository') === 'acme/shop')
  expect(await page.getByRole('row').filter({ hasText: 'checkout' }).count()).toBe(1)
  await page.goto(
    `${base}/ui/dora?environment=production&since=2026-05-04T00%3A00%3A00Z&until=2026-05-11T00%3A00%3A00Z`,
  )
  expect(
    await page
      .getByRole('region', { name: 'Deployment frequency' })
      .locator('.figure')
      .textContent(),
  ).toBe('0.43 / day')
  await context.close()
}, 30_000)

test('with JavaScript on, choosing a repository waits for the button (keyboard first)', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, reader)
  await page.getByLabel('Repository').selectOption('acme/shop') // sends nothing by itself
  expect(new URL(page.url()).searchParams.get('repository')).toBeNull()
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.waitForURL((url) => url.searchParams.get('repository') === 'acme/shop')
  await context.close()
}, 30_000)

test('pages send a strict CSP; the overview filters by repository through its URL', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, reader)
  const response = await page.goto(`${base}/ui?repository=acme%2Fnothing`)
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(await page.getByText('No deployment recorded for acme/nothing yet.').count()).toBe(1)
  await context.close()
}, 30_000)

test('the timeline filters by environment, marks change types, and links each deployment', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, reader, '/ui/deployments')
  await page.getByLabel('Environment').fill('production')
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.waitForURL((url) => url.searchParams.get('environment') === 'production')
  const rows = page.locator('tbody tr')
  expect(await rows.count()).toBe(3)
  expect(await rows.first().textContent()).toContain(HOSTILE_APP)
  expect(await rows.filter({ hasText: '1.0.0' }).textContent()).toContain('initial')
  expect(await rows.filter({ hasText: '1.1.0' }).textContent()).toContain('forward')
  await rows.filter({ hasText: '1.1.0' }).getByRole('link').click()
  await page.waitForURL(/\/ui\/deployments\/[0-9a-f-]{36}$/)
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('checkout 1.1.0')
  // What it replaced: 1.0.0, the deployment before it in production.
  expect(await page.locator('dl.facts').getByRole('link', { name: '1.0.0' }).count()).toBe(1)
  // A reader cannot void.
  expect(await page.getByRole('button', { name: 'Void deployment' }).count()).toBe(0)
  await context.close()
}, 30_000)

test('an admin voids a deployment, with a reason and a confirmation; it leaves the timeline', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, admin, '/ui/deployments?environment=staging')
  await page.locator('tbody tr').filter({ hasText: '1.2.0' }).getByRole('link').click()
  await page.getByLabel('Reason').fill('sent by a test pipeline')
  await page.getByRole('button', { name: 'Void deployment' }).click()
  // Not confirmed: refused, nothing voided.
  expect(await page.getByRole('button', { name: 'Void deployment' }).count()).toBe(1)
  await page.getByLabel('I understand').check()
  // With JavaScript on, the page asks once more; dismissed, nothing is sent.
  const questions: string[] = []
  page.once('dialog', (dialog) => {
    questions.push(dialog.message())
    return dialog.dismiss()
  })
  await page.getByRole('button', { name: 'Void deployment' }).click()
  expect(questions).toEqual([
    'Void \u2068checkout\u2069 \u20681.2.0\u2069 in \u2068staging\u2069? It leaves every list and figure.',
  ])
  expect(await page.getByRole('button', { name: 'Void deployment' }).count()).toBe(1)
  page.once('dialog', (dialog) => dialog.accept())
  await page.getByRole('button', { name: 'Void deployment' }).click()
  await page.waitForURL((url) => url.searchParams.has('voided'))
  expect(await page.getByRole('status').textContent()).toBe('Voided.')
  expect(await page.locator('dl.facts').textContent()).toContain('sent by a test pipeline')
  await page.goto(`${base}/ui/deployments?environment=staging`)
  expect(await page.locator('tbody tr').filter({ hasText: '1.2.0' }).count()).toBe(0)
  await context.close()
}, 30_000)

test('incidents open and resolve from the page; a reader sees them without the forms', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, admin, '/ui/incidents')
  await page.getByLabel('Title').fill('Checkout errors')
  await page.getByLabel('Environment').selectOption('production')
  await page.getByLabel('Application (optional)').fill('checkout')
  await page.getByRole('button', { name: 'Open incident' }).click()
  await page.waitForURL((url) => url.searchParams.get('notice') === 'opened')
  const row = page.locator('tbody tr').filter({ hasText: 'Checkout errors' })
  expect(await row.textContent()).toContain('open')
  await row.getByRole('button', { name: 'Resolve Checkout errors' }).click()
  await page.waitForURL((url) => url.searchParams.get('notice') === 'resolved')
  expect(
    await page.locator('tbody tr').filter({ hasText: 'Checkout errors' }).textContent(),
  ).toContain('resolved')

  const readerContext = await browser.newContext()
  const readerPage = await signIn(readerContext, reader, '/ui/incidents')
  expect(await readerPage.locator('tbody tr').count()).toBe(1)
  expect(await readerPage.getByRole('button', { name: 'Open incident' }).count()).toBe(0)
  await readerContext.close()
  await context.close()
}, 30_000)

test('the DORA page shows the five keys of a shared window, each with a chart', async () => {
  const context = await browser.newContext()
  const page = await signIn(
    context,
    reader,
    '/ui/dora?environment=production&since=2026-05-04T00%3A00%3A00Z&until=2026-05-11T00%3A00%3A00Z',
  )
  const frequency = page.getByRole('region', { name: 'Deployment frequency' })
  // checkout 1.0.0 and 1.1.0 and the hostile app's 0.1.0, over 7 days.
  expect(await frequency.locator('.figure').textContent()).toBe('0.43 / day')
  expect(await frequency.textContent()).toContain('3 deployments')
  for (const name of [
    'Change lead time',
    'Change fail rate',
    'Failed deployment recovery time',
    'Deployment rework rate',
  ]) {
    expect(await page.getByRole('region', { name }).count()).toBe(1)
  }
  expect(
    await page.getByRole('region', { name: 'Change fail rate' }).locator('.figure').textContent(),
  ).toBe('0.0 %')
  expect(await page.locator('svg[role="img"]').count()).toBe(5)
  await context.close()
}, 30_000)

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
