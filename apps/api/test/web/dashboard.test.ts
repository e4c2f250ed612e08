import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import {
  HOSTILE_APP,
  LEGACY_APP,
  type SeededDashboard,
  seedDashboard,
} from '../support/seeded-dashboard.ts'

// The dashboard's pages as a team reads them, in Chromium: sign-in, filters, voiding, incidents, DORA.

let dashboard: SeededDashboard
let base: string
let browser: Browser
let reader: string
let admin: string
let signIn: SeededDashboard['signIn']

beforeAll(async () => {
  dashboard = await seedDashboard()
  ;({ base, browser, reader, admin, signIn } = dashboard)
}, 60_000)

afterAll(() => dashboard?.close())

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
