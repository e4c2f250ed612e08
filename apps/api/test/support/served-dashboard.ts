import { expect } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser } from './browser.ts'
import { type Harness, startHarness } from './harness.ts'

/** A real Shiplog (API and worker on a fresh database) served on a port, and a browser. */
export interface ServedDashboard {
  h: Harness
  base: string
  browser: Browser
  close(): Promise<void>
}

/** Starts Shiplog and Chromium for a test file; `close` stops both. */
export async function serveDashboard(): Promise<ServedDashboard> {
  const h = await startHarness()
  const served = await h.serve()
  const browser = await launchBrowser()
  return {
    h,
    base: served.base,
    browser,
    async close() {
      await browser.close()
      await served.stop()
      await h.close()
    },
  }
}

/** Opens `path`, is sent to sign in, pastes the key, and lands back on the page asked for. */
export async function signIn(
  context: BrowserContext,
  base: string,
  key: string,
  path = '/ui',
): Promise<Page> {
  const page = await context.newPage()
  await page.goto(base + path)
  expect(new URL(page.url()).pathname).toBe('/ui/sign-in')
  await page.getByLabel('API key with the read scope').fill(key)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname !== '/ui/sign-in')
  return page
}
