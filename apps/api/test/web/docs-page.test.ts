import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type ServedDashboard, serveDashboard } from '../support/served-dashboard.ts'

// /docs is a page like /ui's: it carries a strict CSP and nosniff, and renders under them.

let dashboard: ServedDashboard

beforeAll(async () => {
  dashboard = await serveDashboard()
}, 60_000)

afterAll(() => dashboard?.close(), 30_000)

test('/docs is sent with a CSP and nosniff, and Chromium applies its stylesheet under them', async () => {
  const { base, browser } = dashboard
  const response = await fetch(`${base}/docs`)
  expect(response.status).toBe(200)
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  const policy = response.headers.get('content-security-policy') ?? ''
  expect(policy).toStartWith("default-src 'none'; style-src 'sha256-")
  expect(policy).not.toContain('unsafe-inline')
  expect(policy).not.toContain('script-src')

  const context = await browser.newContext()
  const page = await context.newPage()
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  await page.goto(`${base}/docs`)
  // The inline stylesheet ran: the body is held to 64rem, which the browser's default is not.
  const maxWidth = await page.evaluate(() => getComputedStyle(document.body).maxWidth)
  expect(maxWidth).toBe('1024px')
  expect(violations).toEqual([])
  await context.close()
})
