// Shiplog at http://localhost:<port>, its OpenID provider at http://127.0.0.1:<other port> (another
// site, as in production), and Chromium: what the single sign-on tests drive.
import { expect } from 'bun:test'
import { perFile, randomPort } from '@shiplog/db/testing'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser } from './browser.ts'
import { type Harness, startHarness } from './harness.ts'
import { CLIENT, PEOPLE, startProvider, type TestProvider } from './oidc-provider.ts'

export const ROLE_MAPPING = 'group:shiplog-admins=acme:admin; group:shiplog-viewers=acme:viewer'

/** The API's settings for single sign-on against `issuer`, Shiplog being at `base`. */
export const ssoEnv = (issuer: string, base: string): Record<string, string> => ({
  OIDC_ISSUER_URL: issuer,
  OIDC_CLIENT_ID: CLIENT.id,
  OIDC_CLIENT_SECRET: CLIENT.secret,
  OIDC_SCOPES: 'openid email profile groups',
  OIDC_ROLE_MAPPING: ROLE_MAPPING,
  OIDC_ALLOWED_EMAIL_DOMAINS: 'acme.test',
  OIDC_PROVIDER_NAME: 'Test provider',
  PUBLIC_URL: base,
})

export interface ServedSso {
  h: Harness
  base: string
  provider: TestProvider
  browser: Browser
  close(): Promise<void>
}

/** Starts the provider, Shiplog configured for it (and `settings`), and Chromium. */
export async function serveWithSso(settings: Record<string, string> = {}): Promise<ServedSso> {
  const port = randomPort()
  const base = `http://localhost:${port}`
  const provider = await startProvider(base)
  const h = await startHarness({
    ...ssoEnv(provider.issuer, base),
    READ_CONCURRENCY_PER_KEY: '50',
    ...settings,
  })
  const served = await h.serve(port)
  const browser = await launchBrowser()
  return {
    h,
    base,
    provider,
    browser,
    async close() {
      await browser.close()
      await served.stop()
      await h.close()
      await provider.stop()
    },
  }
}

/** `serveWithSso` for the whole test file (see `perFile`). */
export function ssoPerFile(settings: Record<string, string> = {}): ServedSso {
  return perFile(() => serveWithSso(settings), 60_000)
}

/**
 * A browser context that reaches only this machine: the provider's stock pages would load a web
 * font, and the test network is closed (and must stay quiet).
 */
export async function localContext(browser: Browser, options = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options)
  // A step that hangs fails on its own, naming itself, well before the test's 30 s run out.
  context.setDefaultTimeout(10_000)
  await context.route(
    (url) => !['localhost', '127.0.0.1'].includes(url.hostname),
    (route) => route.abort(),
  )
  return context
}

/** At the provider's sign-in page: types the person's username and password. */
export async function signInAtProvider(page: Page, who: keyof typeof PEOPLE): Promise<void> {
  await page.waitForURL((url) => url.hostname === '127.0.0.1')
  await page.getByLabel('Username').fill(who)
  await page.getByLabel('Password').fill(PEOPLE[who].password)
  await page.getByRole('button', { name: 'Sign in to the provider' }).click()
}

/** Opens `path`, is sent to sign in, goes through the provider, and lands back signed in. */
export async function signInAs(
  context: BrowserContext,
  base: string,
  who: keyof typeof PEOPLE,
  path = '/ui',
): Promise<Page> {
  const page = await context.newPage()
  await page.goto(base + path)
  expect(new URL(page.url()).pathname).toBe('/ui/sign-in')
  await page.getByRole('link', { name: 'Sign in with Test provider' }).click()
  await signInAtProvider(page, who)
  await page.waitForURL((url) => url.origin === base && !url.pathname.startsWith('/ui/sign-in'))
  return page
}
