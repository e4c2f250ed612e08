import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdir } from 'node:fs/promises'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import type { Browser, Page } from 'playwright-core'
import type { Harness } from '../support/harness.ts'
import { type ServedDashboard, serveDashboard, signIn } from '../support/served-dashboard.ts'

// The overview and DORA pages with twelve weeks of a small team's deployments, at a phone's
// width and a desktop's: nothing overflows sideways, and `bun run screenshots`
// (SHIPLOG_SCREENSHOTS=1) writes the desktop views to docs/screenshots/ for docs/dashboard.md.

let dashboard: ServedDashboard
let h: Harness
let base: string
let browser: Browser
let key: string

const DAY = 86_400_000
// Up to this week's Monday, so the overview's ages read as a live team's.
const UNTIL = (Math.floor((Date.now() / DAY + 3) / 7) * 7 - 3) * DAY
const SINCE = UNTIL - 12 * 7 * DAY
const APPS = ['checkout', 'search', 'billing', 'accounts']
const sha = (n: number) => n.toString(16).padStart(6, '0').repeat(7).slice(0, 40)

beforeAll(async () => {
  dashboard = await serveDashboard()
  ;({ h, base, browser } = dashboard)
  key = (await issueApiKey(h.sql, { workspace: 'demo', name: 'screens', scopes: ['read'] })).key
  const pipeline = (
    await issueApiKey(h.sql, { workspace: 'demo', name: 'ci', rateLimitPerMinute: 10_000_000 })
  ).key
  // Each app ships to staging, then production a few hours later, two or three times a week,
  // with the commit made hours before; every ninth production deployment is rolled back to the
  // app's previous commit an hour later.
  let n = 0
  const lastCommit = new Map<string, number>()
  const send = async (
    app: string,
    environment: string,
    deployedAt: number,
    commit: number,
    version: string,
  ) => {
    const response = await h.post(
      validDeployment({
        app,
        environment,
        version,
        commitHash: sha(commit),
        deployedAt: new Date(deployedAt).toISOString(),
        repositoryFullName: 'acme/shop',
        author: ['ana', 'bo', 'chen', 'dee'][commit % 4],
      }),
      { key: pipeline },
    )
    expect(response.status).toBe(202)
    return response.headers.get('location') ?? ''
  }
  const receipts: { location: string; commit: number; committedAt: number }[] = []
  for (let day = 0; day < 84; day++) {
    for (const [index, app] of APPS.entries()) {
      if ((day + index) % 3 === 1) continue
      n++
      const at = SINCE + day * DAY + (9 + index) * 3_600_000
      const version = `1.${day}.${index}`
      await send(app, 'staging', at, n, version)
      const location = await send(app, 'production', at + 4 * 3_600_000, n, version)
      receipts.push({ location, commit: n, committedAt: at - ((n * 7) % 30) * 3_600_000 })
      const previous = lastCommit.get(app)
      if (n % 9 === 0 && previous !== undefined) {
        await send(app, 'production', at + 5 * 3_600_000, previous, `${version}-rollback`)
      } else {
        lastCommit.set(app, n)
      }
    }
  }
  await h.drain()
  for (const { location, commit, committedAt } of receipts) {
    const time = new Date(committedAt).toISOString()
    const response = await h.send('PUT', `${location}/commits`, {
      key: pipeline,
      body: { commits: [{ sha: sha(commit), committedAt: time, authoredAt: time, reverts: [] }] },
    })
    expect(response.status).toBe(204)
  }
}, 120_000)

afterAll(() => dashboard?.close())

async function signedInPage(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  return signIn(context, base, key)
}

const PAGES = {
  overview: '/ui',
  dora: `/ui/dora?environment=production&since=${new Date(SINCE).toISOString()}&until=${new Date(UNTIL).toISOString()}`,
}

/** How far the document is wider than the window (0: nothing scrolls sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

test('at 375 px wide nothing overflows sideways; wide tables scroll in their own box', async () => {
  const page = await signedInPage(375)
  for (const path of Object.values(PAGES)) {
    await page.goto(base + path)
    expect({ path, overflow: await overflow(page) }).toEqual({ path, overflow: 0 })
  }
  await page.context().close()
}, 60_000)

test('at 1440 px the DORA page draws twelve weekly points per key; screenshots on request', async () => {
  const page = await signedInPage(1440)
  await page.goto(base + PAGES.dora)
  expect(await overflow(page)).toBe(0)
  const frequency = page.getByRole('region', { name: 'Deployment frequency' })
  expect(await frequency.locator('rect.chart-bar').count()).toBe(12)
  expect(
    await page.getByRole('region', { name: 'Change fail rate' }).locator('.figure').textContent(),
  ).not.toBe('no data')
  if (process.env.SHIPLOG_SCREENSHOTS === '1') {
    await mkdir('docs/screenshots', { recursive: true })
    await page.screenshot({ path: 'docs/screenshots/dora.png', fullPage: true })
    await page.goto(base + PAGES.overview)
    await page.screenshot({ path: 'docs/screenshots/overview.png', fullPage: true })
  } else {
    const png = await page.screenshot({ fullPage: true })
    expect(png.subarray(1, 4).toString()).toBe('PNG')
  }
  await page.context().close()
}, 60_000)
