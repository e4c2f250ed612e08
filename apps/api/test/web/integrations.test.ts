import { afterAll, beforeAll, expect, test } from 'bun:test'
import examples from '@octokit/webhooks-examples'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import type { Browser, Page } from 'playwright-core'
import { allAccessibilityViolations, newAccessibilityContext } from '../support/browser.ts'
import type { Harness } from '../support/harness.ts'
import { createIntegration, deliverGitHub } from '../support/integrations.ts'
import { type ServedDashboard, serveDashboard, signIn } from '../support/served-dashboard.ts'

// The integrations' admin pages in Chromium: an admin connects GitHub, copies the URL and the
// secret shown once, GitHub delivers, and the integration's page lists what became of it; a
// reader is refused as on the other admin pages.

let dashboard: ServedDashboard
let h: Harness
let base: string
let browser: Browser
let admin: string
let reader: string

beforeAll(async () => {
  dashboard = await serveDashboard()
  ;({ h, base, browser } = dashboard)
  const issue = async (name: string, scopes: ('read' | 'admin')[]) =>
    (await issueApiKey(h.sql, { workspace: 'acme', name, scopes })).key
  admin = await issue('admin', ['read', 'admin'])
  reader = await issue('reader', ['read'])
}, 60_000)

afterAll(() => dashboard?.close(), 30_000)

/** GitHub's own deployment_status example of a successful deployment. */
function successfulDeploymentStatus(): string {
  const [example] =
    (examples as { name: string; examples: Record<string, unknown>[] }[])
      .find((each) => each.name === 'deployment_status')
      ?.examples.filter(
        (each) => (each.deployment_status as { state: string }).state === 'success',
      ) ?? []
  expect(example).toBeDefined()
  return JSON.stringify(example)
}

/** Creates an integration from the list page's form; the page is then its secret's page. */
async function create(page: Page, source: 'GitHub' | 'GitLab', name: string): Promise<void> {
  await page.goto(`${base}/ui/integrations`)
  await page.getByLabel('Source').selectOption({ label: source })
  await page.getByLabel('Name').fill(name)
  await page.getByRole('button', { name: 'Create integration' }).click()
  await page.getByText('Copy the secret now: it is not shown again.').waitFor()
}

/** The URL and the secret a secret's page shows. */
async function shownOnce(page: Page) {
  return {
    url: (await page.locator('#integration-url').textContent()) ?? '',
    secret: (await page.locator('#integration-secret').textContent()) ?? '',
  }
}

test('an admin connects GitHub, sees the secret once, and its page lists a delivery and what became of it', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, base, admin, '/ui')
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Integrations' })
    .click()
  await page.waitForURL((url) => url.pathname === '/ui/integrations')
  expect(await page.getByText('No integration yet').count()).toBe(1)

  await create(page, 'GitHub', 'shop on GitHub')
  const { url, secret } = await shownOnce(page)
  expect(secret).toMatch(/^shiplog_whsec_[\w-]{43}$/)
  expect(url).toMatch(new RegExp(`^${base}/hooks/[0-9a-f-]{36}$`))
  const settings = (await page.locator('dl.facts').textContent()) ?? ''
  expect(settings).toContain('application/json')
  expect(settings).toContain('deployment_status')
  expect(settings).toContain('push')
  // Sent again by a reload, the form is refused (the name is taken): no other secret, nor this one.
  await page.reload()
  expect(await page.getByRole('alert').textContent()).toContain('is taken by another integration')
  expect(await page.content()).not.toContain(secret)
  expect(await page.locator('#integration-secret').count()).toBe(0)
  // Revisited: the list and its own page show the URL, never the secret.
  await page.goto(`${base}/ui/integrations`)
  const row = page.locator('tbody tr').filter({ hasText: 'shop on GitHub' })
  expect(await row.textContent()).toContain(url)
  expect(await row.textContent()).toContain('GitHub')
  await row.getByRole('link', { name: 'shop on GitHub' }).click()
  await page.waitForURL(
    (at) => at.pathname === new URL(url).pathname.replace('/hooks/', '/ui/integrations/'),
  )
  expect(await page.content()).not.toContain(secret)
  expect(await page.getByText('No delivery yet').count()).toBe(1)
  expect(await page.getByRole('rowheader', { name: 'app' }).count()).toBe(1)

  // GitHub delivers, signed with the secret read from the page; the worker handles it.
  const delivered = await deliverGitHub(
    h,
    { url, secret },
    'deployment_status',
    successfulDeploymentStatus(),
    { delivery: '72d3162e-cc78-11e3-81ab-4c9367dc0958' },
  )
  expect(delivered.status).toBe(202)
  expect(
    (await deliverGitHub(h, { url, secret }, 'ping', '{"zen":"Keep it logically awesome."}'))
      .status,
  ).toBe(200)
  await h.settle()
  await page.reload()
  const rows = page.locator('tbody tr').filter({ has: page.locator('.badge') })
  expect(await rows.count()).toBe(2)
  // Newest first: the ping, ignored, then the deployment, recorded.
  expect(await rows.nth(0).locator('.badge').textContent()).toBe('ignored')
  const recorded = rows.nth(1)
  expect(await recorded.locator('.badge').textContent()).toBe('recorded')
  expect(await recorded.textContent()).toContain('deployment_status')
  expect(await recorded.textContent()).toContain('72d3162e-cc78-11e3-81ab-4c9367dc0958')
  await recorded.getByRole('link', { name: 'the deployment' }).click()
  await page.waitForURL(/\/ui\/deployments\/[0-9a-f-]{36}$/)
  expect(await page.locator('dl.facts').textContent()).toContain('github')
  await context.close()
}, 60_000)

test('rotating shows the new secret once; deleting asks first, then the URL is refused', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, base, admin, '/ui/integrations')
  await create(page, 'GitHub', 'rotated')
  const first = await shownOnce(page)
  await page.getByRole('link', { name: 'Its settings and deliveries' }).click()
  page.once('dialog', (dialog) => dialog.accept())
  await page.getByRole('button', { name: 'Rotate secret' }).click()
  await page.getByText('Copy the secret now: it is not shown again.').waitFor()
  const second = await shownOnce(page)
  expect(second.url).toBe(first.url)
  expect(second.secret).toMatch(/^shiplog_whsec_/)
  expect(second.secret).not.toBe(first.secret)
  expect(await page.getByRole('status').textContent()).toContain(
    'The previous secret keeps working until',
  )
  // Both are accepted during the grace; the page shows neither again.
  const ping = (secret: string) => deliverGitHub(h, { url: first.url, secret }, 'ping', '{}')
  expect((await ping(first.secret)).status).toBe(200)
  expect((await ping(second.secret)).status).toBe(200)
  await page.getByRole('link', { name: 'Its settings and deliveries' }).click()
  const content = await page.content()
  expect(content).not.toContain(first.secret)
  expect(content).not.toContain(second.secret)
  expect(await page.locator('dl.facts').textContent()).toContain(
    'the previous one is accepted until',
  )

  // Not confirmed: the browser keeps the form (the box is required); dismissed: nothing is sent.
  await page.getByRole('button', { name: 'Delete integration' }).click()
  await page.getByLabel('I understand').check()
  const questions: string[] = []
  page.once('dialog', (dialog) => {
    questions.push(dialog.message())
    return dialog.dismiss()
  })
  await page.getByRole('button', { name: 'Delete integration' }).click()
  expect(questions).toEqual([
    'Delete the integration \u2068rotated\u2069? Its webhook is refused from then on.',
  ])
  expect((await ping(second.secret)).status).toBe(200)
  page.once('dialog', (dialog) => dialog.accept())
  await page.getByRole('button', { name: 'Delete integration' }).click()
  await page.waitForURL((at) => at.searchParams.get('notice') === 'deleted')
  expect(await page.getByRole('status').textContent()).toContain('Integration deleted')
  expect(await page.locator('tbody tr').filter({ hasText: 'rotated' }).count()).toBe(0)
  expect((await ping(second.secret)).status).toBe(404)
  await context.close()
}, 60_000)

test('with JavaScript off, a refused form shows each error beside its field; names are text', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  await createIntegration(h, admin, { source: 'github', name: 'taken' })
  const page = await signIn(context, base, admin, '/ui/integrations')
  await page.getByLabel('Name').fill('taken')
  await page.getByLabel('Mapping (optional, JSON)').fill('{"app": "web", "team": "x"}')
  await page.getByRole('button', { name: 'Create integration' }).click()
  await page.getByRole('alert').waitFor()
  expect(await page.getByRole('alert').textContent()).toContain('mapping.team')
  expect(await page.getByLabel('Mapping (optional, JSON)').getAttribute('aria-invalid')).toBe(
    'true',
  )
  // As typed, to fix; a mapping that is no JSON is named so.
  expect(await page.getByLabel('Name').inputValue()).toBe('taken')
  await page.getByLabel('Mapping (optional, JSON)').fill('{app: web}')
  await page.getByRole('button', { name: 'Create integration' }).click()
  await page.getByRole('alert').waitFor()
  expect(await page.getByRole('alert').textContent()).toContain('must be JSON')
  // Checked, the name is taken: said beside the name, not on a page of its own.
  await page.getByLabel('Mapping (optional, JSON)').fill('')
  await page.getByRole('button', { name: 'Create integration' }).click()
  await page.getByRole('alert').waitFor()
  expect(await page.getByRole('alert').textContent()).toContain('is taken by another integration')
  expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true')

  // A GitLab one, named as an attacker would: its secret goes in GitLab's "Secret token", and
  // GitLab offers no content type.
  const hostile = '<script>alert(1)</script>'
  await page.getByLabel('Source').selectOption('gitlab')
  await page.getByLabel('Name').fill(hostile)
  await page.getByLabel('Mapping (optional, JSON)').fill('{"environment": "production"}')
  await page.getByRole('button', { name: 'Create integration' }).click()
  await page.getByText('Copy the secret now: it is not shown again.').waitFor()
  expect(await page.locator('dl.facts').textContent()).toContain('Secret token')
  expect(await page.locator('dl.facts').textContent()).toContain('nothing to choose')
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(hostile)
  expect(await page.evaluate(() => document.querySelectorAll('main script').length)).toBe(0)
  await page.getByRole('link', { name: 'Its settings and deliveries' }).click()
  expect(await page.getByRole('row', { name: /^environment/ }).textContent()).toContain(
    '"production", then environment',
  )
  await context.close()
}, 60_000)

test('a reader is refused the pages and the forms, and has no link to them', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, base, reader, '/ui')
  expect(await page.getByRole('link', { name: 'Integrations' }).count()).toBe(0)
  const refused = await page.goto(`${base}/ui/integrations`)
  expect(refused?.status()).toBe(403)
  expect(await page.getByRole('alert').textContent()).toContain(
    'Managing integrations needs the admin role',
  )
  const csrf = (await page.locator('input[name="csrf"]').first().getAttribute('value')) ?? ''
  const posted = await page.request.post(`${base}/ui/integrations`, {
    form: { csrf, source: 'github', name: 'by a reader' },
  })
  expect(posted.status()).toBe(403)
  expect(await h.sql`select 1 from integrations where name = 'by a reader'`).toHaveLength(0)
  const one = await createIntegration(h, admin, { source: 'gitlab', name: 'not for readers' })
  expect((await page.goto(`${base}/ui/integrations/${one.id}`))?.status()).toBe(403)
  const rotate = await page.request.post(`${base}/ui/integrations/${one.id}/secret`, {
    form: { csrf },
  })
  expect(rotate.status()).toBe(403)
  const rotated = await h.sql`
    select 1 from integrations where id = ${one.id} and previous_secret is not null`
  expect(rotated).toHaveLength(0)
  await context.close()
}, 30_000)

test('axe finds nothing on the integrations pages, a refused form and a secret’s page included', async () => {
  const context = await newAccessibilityContext(browser)
  const page = await signIn(context, base, admin, '/ui/integrations')
  const found: Record<string, string[]> = {}
  found.list = await allAccessibilityViolations(page)
  await page.getByLabel('Name').fill('refused')
  await page.getByLabel('Mapping (optional, JSON)').fill('{')
  await page.getByRole('button', { name: 'Create integration' }).click()
  await page.getByRole('alert').waitFor()
  found['refused form'] = await allAccessibilityViolations(page)
  await create(page, 'GitHub', 'checked by axe')
  found.secret = await allAccessibilityViolations(page)
  await page.getByRole('link', { name: 'Its settings and deliveries' }).click()
  found.integration = await allAccessibilityViolations(page)
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, []])))
  await context.close()
}, 60_000)
