import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { downloadCsv, expectCsvOfJson } from '../support/csv-download.ts'
import { COMMITS, type ReleaseDay, sha, startReleaseDay, WEB } from '../support/release-history.ts'

// A release manager's day in Chromium, on a scripted history across dev, staging and production
// (release-history.ts): the overview in pipeline order with its marks, what waits for
// production, an incident opened from a deployment, and the CSV.

let day: ReleaseDay
const { c3, x3 } = COMMITS
beforeAll(async () => {
  day = await startReleaseDay()
}, 90_000)
afterAll(() => day?.close())

test('the overview reads dev, staging, production, marks each cell in words, and says what waits', async () => {
  await day.asManager(undefined, async (page) => {
    const headers = (await page.locator('thead th').allTextContents()).map((text) => text.trim())
    expect(headers).toEqual([
      'Application',
      'dev open incident',
      'staging',
      'production production',
    ])
    const cellText = async (app: string, column: number) =>
      (await page.getByRole('row').filter({ hasText: app }).locator('td').nth(column).textContent())
        ?.replace(/\s+/g, ' ')
        .trim()
    expect(await cellText('checkout', 2)).toContain('failed open incident')
    expect(await cellText('search', 1)).toContain('rolled back')
    // The voided p2 is gone from the cell, which shows p1 and says why.
    const searchProduction = page
      .getByRole('row')
      .filter({ hasText: 'search' })
      .locator('td')
      .nth(2)
    expect(await searchProduction.getByRole('link').textContent()).toBe('search-p1')
    expect(await cellText('search', 2)).toEndWith('voided')
    const waiting = page.getByRole('link', { name: 'staging → production: 2 commits waiting' })
    expect(await waiting.count()).toBe(1)
    await waiting.click()
    await page.waitForURL((url) => url.pathname === '/ui/compare')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'checkout: staging → production',
    )
  })
}, 30_000)

test('/ui/compare lists exactly the commits waiting, newest first, with subjects and links', async () => {
  await day.asManager('/ui/compare?app=checkout&from=staging&to=production', async (page) => {
    const rows = page.locator('tbody tr')
    // By hand: production runs c2; staging went on to c3, whose list holds c3 and x3.
    const expected = [c3, x3]
    expect(await rows.count()).toBe(expected.length)
    for (const [index, commit] of expected.entries()) {
      const row = rows.nth(index)
      expect(await row.textContent()).toContain(commit.subject)
      expect(await row.textContent()).toContain(commit.author)
      expect(await row.getByRole('link').getAttribute('href')).toBe(
        `${WEB}/commit/${sha(commit.name)}`,
      )
    }
    // The release notes are the same commits, as Markdown.
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download them as release notes (Markdown)' }).click()
    const notes = await readFile((await (await download).path()) as string, 'utf8')
    expect(notes).toContain(
      `- Fix the checkout total ([\`${sha('c3').slice(0, 12)}\`](${WEB}/commit/${sha('c3')})) — Ada`,
    )
    expect(notes).toContain('2 commits wait, in 1 deployment of staging:')
    // dev → staging, chosen in the form: c4 waits.
    await page.getByRole('combobox', { name: /^From/ }).selectOption('dev')
    await page.getByRole('combobox', { name: /^To/ }).selectOption('staging')
    await page.getByRole('button', { name: 'Compare' }).click()
    await page.waitForURL((url) => url.searchParams.get('from') === 'dev')
    expect(await page.locator('tbody tr').allTextContents()).toEqual([
      expect.stringContaining('Faster search'),
    ])
  })
}, 30_000)

test('an incident opened from a deployment is prefilled; one bad field keeps the others', async () => {
  const deployment = day.ids.get('checkout staging c3') as string
  await day.asManager(`/ui/deployments/${deployment}`, async (page) => {
    await page.getByText('Open an incident about this deployment').click()
    expect(await page.getByLabel('Application (optional)').inputValue()).toBe('checkout')
    expect(await page.getByLabel('Environment').inputValue()).toBe('staging')
    expect(await page.getByLabel('Cause: deployment id (optional)').inputValue()).toBe(deployment)
    const start = Date.parse(await page.getByLabel('Started (UTC, RFC 3339)').inputValue())
    expect(Math.abs(Date.now() - start)).toBeLessThan(120_000)
    await page.getByLabel('Title').fill('Totals are off by a cent')
    await page.getByLabel('Started (UTC, RFC 3339)').fill('yesterday at noon')
    await page.getByRole('button', { name: 'Open incident' }).click()
    await page.waitForURL((url) => url.pathname === '/ui/incidents')
    expect(await page.getByRole('alert').textContent()).toContain('startedAt')
    expect(await page.getByLabel('Title').inputValue()).toBe('Totals are off by a cent')
    expect(await page.getByLabel('Application (optional)').inputValue()).toBe('checkout')
    expect(await page.getByLabel('Environment').inputValue()).toBe('staging')
    expect(await page.getByLabel('Cause: deployment id (optional)').inputValue()).toBe(deployment)
    const startField = page.getByLabel('Started (UTC, RFC 3339)')
    expect(await startField.getAttribute('aria-invalid')).toBe('true')
    await startField.fill('2026-05-03T10:00:00Z')
    await page.getByRole('button', { name: 'Open incident' }).click()
    await page.waitForURL((url) => url.searchParams.get('notice') === 'opened')
    const [incident] = await day.h.sql<{ cause: string; started: string }[]>`
      select cause_deployment_id::text as cause, iso_utc(started_at) as started
        from incidents where title = 'Totals are off by a cent'`
    expect(incident).toEqual({ cause: deployment, started: '2026-05-03T10:00:00.000Z' })
  })
}, 30_000)

test('the timeline’s CSV parses and matches the JSON of the same filters', async () => {
  await day.asManager('/ui/deployments?environment=staging&since=2026-05-02', async (page) => {
    const rows = await downloadCsv(page, 'Download every matching deployment as CSV')
    const json = await (
      await day.h.get('/v1/deployments?environment=staging&since=2026-05-02&limit=100', {
        key: day.pipeline,
      })
    ).json()
    expect(rows.length).toBeGreaterThan(2)
    expectCsvOfJson(rows, json.data)
  })
}, 30_000)

test('the commit list’s CSV parses and matches the JSON of the same filters', async () => {
  await day.asManager('/ui/commits', async (page) => {
    const rows = await downloadCsv(page, 'Download every matching commit as CSV')
    const json = await (await day.h.get('/v1/commits?limit=100', { key: day.pipeline })).json()
    expect(rows.length).toBeGreaterThan(2)
    expectCsvOfJson(rows, json.data)
  })
}, 30_000)
