import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { downloadCsv, expectCsvOfJson } from '../support/csv-download.ts'
import { type ReleaseDay, startReleaseDay } from '../support/release-history.ts'

// The DORA page a team lead compares with, in Chromium, on the scripted history of
// release-history.ts: each figure beside the period before, and the applications × the five keys,
// sorted by links that work without JavaScript.

let day: ReleaseDay
beforeAll(async () => {
  day = await startReleaseDay()
}, 90_000)
afterAll(() => day?.close())

// Staging, 2 May to 4 May: checkout c2 and c3, search s2 and its rollback to s1. The two days
// before: checkout c1 and search s1.
const STAGING = '/ui/dora?environment=staging&since=2026-05-02&until=2026-05-04'

const panel = (page: Page, name: string) => page.getByRole('region', { name })

test('each figure stands beside the period of the same length before it', async () => {
  await day.asManager(STAGING, async (page) => {
    const frequency = panel(page, 'Deployment frequency')
    expect(await frequency.locator('.figure').textContent()).toBe('2.00 / day')
    expect(await frequency.locator('.previous').textContent()).toBe(
      'was 1.00 / day the period before',
    )
    // search's rollback to s1 is rework (and s2 failed); nothing was reworked before.
    const rework = panel(page, 'Deployment rework rate')
    expect(await rework.locator('.figure').textContent()).toBe('25.0 %')
    expect(await rework.locator('.previous').textContent()).toBe('was 0.0 % the period before')
    expect(await page.locator('main').textContent()).toContain(
      'Compared with the period before, 2026-04-30 00:00 UTC to 2026-05-02 00:00 UTC.',
    )
  })
}, 30_000)

test('the applications table sorts by any key through its links, with JavaScript off', async () => {
  await day.asManager(
    STAGING,
    async (page) => {
      const table = page.getByRole('table')
      const apps = async () =>
        (await table.locator('tbody th').allTextContents()).map((text) => text.split('acme/')[0])
      const cells = async (app: string) =>
        (await table.getByRole('row').filter({ hasText: app }).locator('td').allInnerTexts()).map(
          (text) => text.replace(/\s+/g, ' ').trim(),
        )
      expect(await cells('search')).toEqual([
        '2 1.00 / day',
        'no data 0 commits',
        '100.0 % 1 of 1',
        '24 h 0 open',
        '50.0 % 1 of 2',
      ])
      expect((await cells('checkout'))[1]).toBe('1 h 3 commits')
      await page.getByRole('link', { name: /^Rework rate/ }).click()
      await page.waitForURL((url) => url.searchParams.get('sort') === 'rework')
      expect(await apps()).toEqual(['search', 'checkout'])
      expect(
        await page.getByRole('columnheader', { name: /^Rework rate/ }).getAttribute('aria-sort'),
      ).toBe('descending')
      await page.getByRole('link', { name: /^Rework rate/ }).click()
      await page.waitForURL((url) => url.searchParams.get('order') === 'asc')
      expect(await apps()).toEqual(['checkout', 'search'])
      // The window's form keeps the sort.
      await page.getByRole('button', { name: 'Show' }).click()
      await page.waitForURL((url) => url.searchParams.get('sort') === 'rework')
      expect(await apps()).toEqual(['checkout', 'search'])
      // An application's name opens its own figures.
      await table.getByRole('link', { name: 'search', exact: true }).click()
      await page.waitForURL((url) => url.searchParams.get('app') === 'search')
      expect(await panel(page, 'Deployment frequency').locator('.figure').textContent()).toBe(
        '1.00 / day',
      )
    },
    { javaScriptEnabled: false },
  )
}, 30_000)

/** The rows of a list page and of every older page after it. */
async function countRows(page: Page, href: string): Promise<number> {
  let rows = 0
  let next: string | null = href
  while (next) {
    await page.goto(day.base + next)
    rows += await page.locator('main tbody tr').count()
    next = await page
      .getByRole('link', { name: 'Older' })
      .getAttribute('href', { timeout: 1 })
      .catch(() => null)
  }
  return rows
}

/** Each count's link on the DORA page at `path`: the count, and the rows its list holds. */
async function countsAndRows(page: Page, path: string) {
  await page.goto(day.base + path)
  const links = await page.locator('.key p.muted a').evaluateAll((all) =>
    all.map((link) => ({
      text: link.textContent ?? '',
      href: link.getAttribute('href') ?? '',
      key: link.closest('section')?.querySelector('h2')?.textContent ?? '',
    })),
  )
  // Frequency, lead time, recovery: one each; fail rate and rework: both their counts.
  expect(links.length).toBe(7)
  const checked: Record<string, [figure: number, rows: number]> = {}
  for (const link of links) {
    const figure = Number(/^\d+/.exec(link.text)?.[0])
    checked[`${path} ${link.key}: ${link.text}`] = [figure, await countRows(page, link.href)]
  }
  return checked
}

/** What `checked` should be: each list as long as its count. */
const allEqual = (checked: Record<string, [number, number]>): Record<string, [number, number]> =>
  Object.fromEntries(Object.entries(checked).map(([name, [figure]]) => [name, [figure, figure]]))

test('every count on the DORA page links to a list holding exactly that many rows', async () => {
  await day.asManager(undefined, async (page) => {
    // By default every production environment (here one), named in the title; then staging, where
    // search failed and was rolled back.
    const checked = {
      ...(await countsAndRows(page, '/ui/dora?since=2026-04-28&until=2026-05-05')),
      ...(await countsAndRows(page, STAGING)),
    }
    expect(checked).toEqual(allEqual(checked))
    // Not vacuous: lists of deployments, commits, failures and rework with rows in them.
    for (const text of ['deployments', 'commits', 'failed', 'rework']) {
      expect(
        Object.entries(checked).some(([name, [, rows]]) => name.includes(text) && rows > 0),
      ).toBe(true)
    }
    await page.goto(`${day.base}/ui/dora`)
    expect(await page.title()).toStartWith('DORA: production')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'How we deliver to production',
    )
  })
}, 60_000)

test('the page’s series downloads as CSV, equal to the API’s JSON of the window it shows', async () => {
  await day.asManager(STAGING, async (page) => {
    const rows = await downloadCsv(page, 'Download the weekly series as CSV')
    const json = await (
      await day.h.get('/v1/metrics/dora?environment=staging&since=2026-05-02&until=2026-05-04', {
        key: day.pipeline,
      })
    ).json()
    expectCsvOfJson(rows, json.series)
    // Not vacuous: the window's two deployments of search and two of checkout are in it.
    expect(rows.reduce((sum, row) => sum + Number(row['deploymentFrequency.deployments']), 0)).toBe(
      4,
    )
  })
}, 30_000)

// Last: it changes which environments are production.
test('with two production environments, the page adds both up and its links list both', async () => {
  const put = await day.h.send('PUT', '/v1/environments/staging', {
    key: day.pipeline,
    body: { production: true },
  })
  expect(put.status).toBe(200)
  await day.asManager('/ui/dora?since=2026-05-01&until=2026-05-04', async (page) => {
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'How we deliver to staging, production',
    )
    expect(await page.getByLabel('Environment').inputValue()).toBe('')
    // staging's 6 deployments and production's 3 (search's p2 voided) from 1 to 4 May.
    expect(await panel(page, 'Deployment frequency').locator('p.muted').textContent()).toBe(
      '9 deployments',
    )
    const checked = await countsAndRows(page, '/ui/dora?since=2026-05-01&until=2026-05-04')
    expect(checked).toEqual(allEqual(checked))
  })
}, 60_000)
