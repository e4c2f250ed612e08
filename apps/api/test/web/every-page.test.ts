import { afterAll, beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import type { Page } from 'playwright-core'
import { allAccessibilityViolations, newAccessibilityContext } from '../support/browser.ts'
import { type ReleaseDay, startReleaseDay } from '../support/release-history.ts'
import { signIn as signInAt } from '../support/served-dashboard.ts'

// Every page a release manager meets (release-history.ts), as anyone may use it: by keyboard
// alone, on a phone's width, with no accessibility finding; and an empty workspace's first visit.

let day: ReleaseDay
beforeAll(async () => {
  day = await startReleaseDay()
}, 90_000)
afterAll(() => day?.close())

/** A refused incident: the form again, with what was typed and what to fix. */
async function refuseIncident(page: Page): Promise<void> {
  await page.goto(`${day.base}/ui/incidents`)
  await page.getByLabel('Title').fill('x')
  await page.getByLabel('Started (UTC, RFC 3339)').fill('soon')
  await page.getByRole('button', { name: 'Open incident' }).click()
  await page.getByRole('alert').waitFor()
}

/** Every page a release manager meets, and a refused form. */
async function everyPage(): Promise<string[]> {
  const deployment = day.ids.get('checkout production c2') as string
  return [
    '/ui',
    '/ui/compare?app=checkout&from=staging&to=production',
    '/ui/deployments',
    `/ui/deployments/${deployment}`,
    '/ui/dora',
    '/ui/dora?environment=staging&since=2026-05-02&until=2026-05-04&sort=rework',
    '/ui/commits?production=true',
    '/ui/deployments?environment=staging&failed=true&changeType=change',
    '/ui/incidents',
  ]
}

/** How far the document is wider than the window (0: nothing scrolls sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

/** `measure` on every page (its details opened) and on a refused incident form, by path. */
async function measureEveryPage<Found>(
  page: Page,
  measure: (page: Page) => Promise<Found>,
): Promise<Record<string, Found>> {
  const found: Record<string, Found> = {}
  for (const path of await everyPage()) {
    await page.goto(day.base + path)
    await page.locator('details').evaluateAll((all) => {
      for (const details of all) (details as HTMLDetailsElement).open = true
    })
    found[path] = await measure(page)
  }
  await refuseIncident(page)
  found['refused incident'] = await measure(page)
  return found
}

test('no page scrolls sideways at 375 px, a refused form and the sign-in page included', async () => {
  await day.asManager(
    undefined,
    async (page) => {
      const found = await measureEveryPage(page, overflow)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL((url) => url.pathname === '/ui/sign-in')
      found['/ui/sign-in'] = await overflow(page)
      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((path) => [path, 0])))
    },
    { viewport: { width: 375, height: 800 } },
  )
}, 60_000)

test('the keyboard alone reaches every control of every page', async () => {
  await day.asManager(undefined, async (page) => {
    const missed: Record<string, string[]> = {}
    for (const path of await everyPage()) {
      await page.goto(day.base + path)
      // Every control a person could use, tagged; then Tab from the top until each was focused.
      const controls = await page.evaluate(() => {
        const all = [
          ...document.querySelectorAll<HTMLElement>(
            'a[href], button, input:not([type=hidden]), select, textarea, summary',
          ),
        ].filter((element) => element.checkVisibility() && element.tabIndex >= 0)
        return all.map((element, index) => {
          element.dataset.walk = String(index)
          return `${element.tagName.toLowerCase()} ${element.textContent?.trim().slice(0, 40) ?? ''}`
        })
      })
      const reached = new Set<string>()
      for (let press = 0; press < controls.length + 5; press++) {
        await page.keyboard.press('Tab')
        const walk = await page.evaluate(
          () => (document.activeElement as HTMLElement | null)?.dataset.walk,
        )
        if (walk !== undefined) reached.add(walk)
      }
      missed[path] = controls.filter((_, index) => !reached.has(String(index)))
      expect(controls.length).toBeGreaterThan(5)
    }
    expect(missed).toEqual(Object.fromEntries(Object.keys(missed).map((path) => [path, []])))
  })
}, 90_000)

test('axe finds nothing on any page, whatever its impact', async () => {
  const context = await newAccessibilityContext(day.browser)
  const page = await signInAt(context, day.base, day.manager)
  const found = await measureEveryPage(page, allAccessibilityViolations)
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((path) => [path, []])))
  await context.close()
}, 90_000)

test('an empty workspace’s overview shows how to send the first deployment, with this server’s address', async () => {
  const { key } = await issueApiKey(day.h.sql, {
    workspace: 'fresh',
    name: 'new',
    scopes: ['read'],
  })
  const context = await newAccessibilityContext(day.browser)
  const page = await signInAt(context, day.base, key)
  const steps = (await page.locator('main').textContent()) ?? ''
  expect(steps).toContain(
    'bun run keys create --workspace fresh --name ci --scope deployments:write',
  )
  expect(steps).toContain(`curl -i ${day.base}/v1/deployments`)
  expect(steps).toContain(`curl -fsS -o shiplog.mjs ${day.base}/cli/shiplog.mjs`)
  expect(steps).toContain(`url: ${day.base}`)
  expect(await allAccessibilityViolations(page)).toEqual([])
  await context.close()
}, 30_000)
