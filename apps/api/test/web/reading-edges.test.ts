import { afterAll, beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import type { Browser } from 'playwright-core'
import type { Harness } from '../support/harness.ts'
import { type ServedDashboard, serveDashboard, signIn } from '../support/served-dashboard.ts'

// What a reader sees at the edges: an empty filter reads as empty (its hint is no date that could
// pass for a chosen one), and a name of 255 letters without a space wraps instead of pushing
// the page sideways.

let dashboard: ServedDashboard
let h: Harness
let base: string
let browser: Browser
let reader: string
const LONG = 'x'.repeat(255)
let deploymentId: string

beforeAll(async () => {
  dashboard = await serveDashboard()
  ;({ h, base, browser } = dashboard)
  reader = (await issueApiKey(h.sql, { workspace: 'acme', name: 'reader', scopes: ['read'] })).key
  deploymentId = await h.deploy(
    validDeployment({
      app: LONG,
      environment: `e${LONG.slice(1)}`,
      repositoryFullName: `acme/${LONG.slice(0, 200)}`,
      version: `v${'9'.repeat(69)}`,
    }),
  )
  await h.drain()
}, 60_000)

afterAll(() => dashboard?.close(), 30_000)

const PAGES = [
  '/ui',
  '/ui/deployments',
  '/ui/dora',
  '/ui/incidents',
  '/ui/commits',
  `/ui/deployments?app=${LONG}`,
  `/ui/dora?environment=e${LONG.slice(1)}`,
]

test('no filter hint looks like a date already chosen', async () => {
  const context = await browser.newContext()
  const page = await signIn(context, base, reader, '/ui/dora')
  for (const path of PAGES) {
    await page.goto(base + path)
    const hints = await page
      .locator('input[placeholder]')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).placeholder))
    expect({ path, dated: hints.filter((hint) => /\d{4}-\d{2}/.test(hint)) }).toEqual({
      path,
      dated: [],
    })
  }
  await context.close()
})

test('a 255-letter name wraps: no page scrolls sideways, on a desktop or a phone', async () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    const context = await browser.newContext({ viewport })
    const page = await signIn(context, base, reader, '/ui')
    for (const path of [...PAGES, `/ui/deployments/${deploymentId}`]) {
      await page.goto(base + path)
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      // What sticks out, to name it when the page scrolls.
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('main *, header *')]
          .filter((element) => element.getBoundingClientRect().right > innerWidth)
          .map((element) => element.tagName.toLowerCase()),
      )
      expect({ width: viewport.width, path, overflow }).toEqual({
        width: viewport.width,
        path,
        overflow: 0,
        ...(overflow > 0 ? { wide } : {}),
      })
    }
    await context.close()
  }
})
