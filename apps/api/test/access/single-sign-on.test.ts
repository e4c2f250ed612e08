import { beforeAll, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import type { BrowserContext, Page } from 'playwright-core'
import { seriousAccessibilityViolations } from '../support/browser.ts'
import { localContext, signInAs, signInAtProvider, ssoPerFile } from '../support/served-sso.ts'

// Single sign-on end to end: Chromium, Shiplog on localhost, and a real OpenID provider (the
// `oidc-provider` package, in a process of its own) on 127.0.0.1, another site. Two people in two
// groups: alice (shiplog-admins: admin of acme) and victor (shiplog-viewers: viewer of acme).

const served = ssoPerFile()
let adminKey: string
let deploymentId: string

beforeAll(async () => {
  adminKey = (await served.h.createKey({ scopes: ['read', 'admin'] })).key
  for (const [index, version] of ['1.0.0', '1.1.0'].entries()) {
    const deployedAt = `2026-05-0${index + 4}T10:00:00Z`
    const commitHash = `${index + 1}`.repeat(40)
    await served.h.deploy(validDeployment({ version, deployedAt, commitHash }))
  }
  await served.h.drain()
  const [row] = await served.h.sql<
    { id: string }[]
  >`select id from deployments where version = '1.0.0'`
  deploymentId = row?.id ?? ''
})

/** Shiplog's cookies in the context (all under /ui), not the provider's. */
const shiplogCookies = async (context: BrowserContext) =>
  (await context.cookies()).filter((cookie) => cookie.domain === 'localhost')
const sessions = async () => (await served.h.sql`select 1 from dashboard_sessions`).length
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()

test('a viewer signs in at the provider and lands on the overview, signed in', async () => {
  const context = await localContext(served.browser)
  const page = await signInAs(context, served.base, 'victor')
  expect(new URL(page.url()).pathname).toBe('/ui')
  expect(await heading(page)).toBe('What runs where')
  expect(await page.locator('header .who').textContent()).toContain('Victor Viewer')
  expect(await page.locator('header .who').textContent()).toContain('viewer')
  // Only the Strict session cookie is left; the sign-in's Lax reference is gone.
  const cookies = await shiplogCookies(context)
  expect(cookies.map(({ name, sameSite, httpOnly }) => ({ name, sameSite, httpOnly }))).toEqual([
    { name: 'shiplog_session', sameSite: 'Strict', httpOnly: true },
  ])
  expect([...(await served.h.sql`select email, groups from people`)]).toEqual([
    { email: 'victor@acme.test', groups: ['shiplog-viewers'] },
  ])
  await context.close()
}, 30_000)

test('a viewer is offered no void button and no key page, and a forged void is refused', async () => {
  const context = await localContext(served.browser)
  const page = await signInAs(context, served.base, 'victor', `/ui/deployments/${deploymentId}`)
  expect(await heading(page)).toContain('checkout 1.0.0')
  expect(await page.getByRole('button', { name: 'Void deployment' }).count()).toBe(0)
  expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0)
  // The viewer's own session and CSRF token, posted by hand: the server checks the role again.
  const csrf = await page.locator('input[name="csrf"]').first().inputValue()
  const forged = await page.request.post(`${served.base}/ui/deployments/${deploymentId}/void`, {
    form: { csrf, reason: 'forged', confirm: 'yes' },
    headers: { origin: served.base },
  })
  expect(forged.status()).toBe(403)
  expect(await forged.text()).toContain('needs the admin role')
  expect(await served.h.sql`select 1 from deployments where voided_at is not null`).toHaveLength(0)
  const keysPage = await page.request.get(`${served.base}/ui/keys`)
  expect(keysPage.status()).toBe(403)
  await context.close()
}, 30_000)

test('an admin voids a deployment, and the audit names them on the page and in GET /v1/audit', async () => {
  const context = await localContext(served.browser)
  const page = await signInAs(context, served.base, 'alice', `/ui/deployments/${deploymentId}`)
  await page.getByLabel('Reason').fill('recorded by a test pipeline')
  await page.getByLabel('I understand').check()
  page.once('dialog', (dialog) => dialog.accept())
  await page.getByRole('button', { name: 'Void deployment' }).click()
  await page.waitForURL((url) => url.searchParams.has('voided'))
  expect(await page.locator('dl.facts').textContent()).toContain('by Alice Admin')
  const history = page.locator('ol.history')
  expect(await history.textContent()).toContain('Voided by Alice Admin (alice@acme.test)')
  expect(await history.textContent()).toContain('recorded by a test pipeline')

  const audit = await served.h.get('/v1/audit?action=deployment.voided', { key: adminKey })
  expect(audit.status).toBe(200)
  const { data } = await audit.json()
  expect(data).toMatchObject([
    {
      action: 'deployment.voided',
      targetId: deploymentId,
      actor: { type: 'person', name: 'Alice Admin', email: 'alice@acme.test', keyPrefix: null },
      details: { reason: 'recorded by a test pipeline' },
    },
  ])
  const receipt = await (
    await served.h.get(`/v1/deployments/${deploymentId}`, { key: adminKey })
  ).json()
  expect(receipt).toMatchObject({ status: 'voided', voided: { keyName: null } })
  await context.close()
}, 30_000)

test('an admin creates an API key from the dashboard (shown once) and revokes it', async () => {
  const context = await localContext(served.browser)
  const page = await signInAs(context, served.base, 'alice', '/ui/keys')
  expect(await heading(page)).toBe('API keys of acme')
  await page.getByLabel('Name').fill('release pipeline')
  await page.getByRole('button', { name: 'Create key' }).click()
  const key = (await page.locator('#new-key').textContent()) ?? ''
  expect(key).toMatch(/^shiplog_[A-Za-z0-9_-]{43}$/)
  // The key works, with the scopes ticked by default, and is never shown again.
  expect((await served.h.post(validDeployment({ version: '9.9.9' }), { key })).status).toBe(202)
  await page.goto(`${served.base}/ui/keys`)
  expect(await page.content()).not.toContain(key)
  const row = page.getByRole('row').filter({ hasText: 'release pipeline' })
  expect(await row.textContent()).toContain('deployments:write, read')
  page.once('dialog', (dialog) => dialog.accept())
  await row.getByRole('button', { name: 'Revoke release pipeline' }).click()
  await page.waitForURL((url) => url.searchParams.has('revoked'))
  expect(
    await page.getByRole('row').filter({ hasText: 'release pipeline' }).textContent(),
  ).toContain('revoked')
  const { data } = await (
    await served.h.get('/v1/audit?actor=ALICE@acme.test', { key: adminKey })
  ).json()
  expect(data.map((event: { action: string }) => event.action).slice(0, 2)).toEqual([
    'key.revoked',
    'key.created',
  ])
  expect(data[1]).toMatchObject({
    details: { name: 'release pipeline', scopes: ['deployments:write', 'read'] },
  })
  await context.close()
}, 30_000)

test('signing out ends the session here and at the provider', async () => {
  const context = await localContext(served.browser)
  const page = await signInAs(context, served.base, 'alice')
  const before = await sessions()
  await page.getByRole('button', { name: 'Sign out' }).click()
  // The provider asks to confirm (RP-initiated logout), then sends the browser back.
  await page.waitForURL((url) => url.hostname === '127.0.0.1')
  await page.getByRole('button', { name: 'Yes, sign me out' }).click()
  await page.waitForURL((url) => url.origin === served.base && url.pathname === '/ui/sign-in')
  expect(await sessions()).toBe(before - 1)
  expect(await shiplogCookies(context)).toEqual([])
  await page.goto(`${served.base}/ui/deployments`)
  expect(new URL(page.url()).pathname).toBe('/ui/sign-in')
  // Signed out at the provider too: signing in again asks for the password.
  await page.getByRole('link', { name: 'Sign in with Test provider' }).click()
  await page.waitForURL((url) => url.hostname === '127.0.0.1')
  expect(await page.getByLabel('Password').count()).toBe(1)
  await context.close()
}, 30_000)

test('the sign-in pages and a signed-in page have no serious accessibility violation', async () => {
  const context = await localContext(served.browser, { bypassCSP: true })
  const page = await context.newPage()
  await page.goto(`${served.base}/ui/sign-in`)
  const found: Record<string, string[]> = {
    '/ui/sign-in': await seriousAccessibilityViolations(page),
  }
  await page.getByRole('link', { name: 'Sign in with Test provider' }).click()
  await signInAtProvider(page, 'alice')
  await page.waitForURL((url) => url.origin === served.base && url.pathname === '/ui')
  const opened = await served.h.send('POST', '/v1/incidents', {
    key: adminKey,
    body: { environment: 'production', title: 'Checkout errors' },
  })
  const incident = (await opened.json()).id
  for (const path of [
    '/ui',
    '/ui/keys',
    `/ui/deployments/${deploymentId}`,
    `/ui/incidents/${incident}`,
  ]) {
    await page.goto(served.base + path)
    found[path] = await seriousAccessibilityViolations(page)
  }
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((path) => [path, []])))
  await context.close()
}, 60_000)
