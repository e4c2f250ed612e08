import { afterAll, beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import type { Browser } from 'playwright-core'
import type { Harness } from '../support/harness.ts'
import { type ServedDashboard, serveDashboard, signIn } from '../support/served-dashboard.ts'

// A count of one reads as one: "1 deployment", "1 recovery", "1 failed deployment", never
// "1 deployments" or "1 recoveries", on the pages people read.

let dashboard: ServedDashboard
let h: Harness
let base: string
let browser: Browser
let reader: string

beforeAll(async () => {
  dashboard = await serveDashboard()
  ;({ h, base, browser } = dashboard)
  reader = (await issueApiKey(h.sql, { workspace: 'acme', name: 'reader', scopes: ['read'] })).key
  const writer = (
    await issueApiKey(h.sql, { workspace: 'acme', name: 'writer', scopes: ['incidents:write'] })
  ).key
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString()
  await h.deploy(validDeployment({ version: '1.0.0', deployedAt: hoursAgo(3) }))
  const cause = await h.deploy(
    validDeployment({ version: '2.0.0', commitHash: 'b'.repeat(40), deployedAt: hoursAgo(2) }),
  )
  await h.drain()
  const incident = await h.send('POST', '/v1/incidents', {
    key: writer,
    body: {
      environment: 'production',
      title: 'Checkout down',
      causeDeploymentId: cause,
      resolvedAt: hoursAgo(1),
    },
  })
  expect(incident.status).toBe(201)
}, 60_000)

afterAll(() => dashboard?.close(), 30_000)

test('the DORA page and the overview write a count of one in the singular', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, base, reader, '/ui/dora')
  const dora = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ')
  expect(dora).toContain('median of 1 recovery;')
  expect(dora).toContain('(1 failed deployment)')
  expect(dora).toContain('of 2 changes')
  expect(dora).not.toMatch(/\b1 (deployments|recoveries|changes|commits|failed deployments)\b/)
  await page.goto(`${base}/ui`)
  const overview = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ')
  expect(overview).toContain('1 application, newest deployment first')
  await context.close()
})
