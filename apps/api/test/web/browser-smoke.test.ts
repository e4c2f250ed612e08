// Proves the browser test infrastructure (Chromium through playwright-core, axe-core in the page)
// against a tiny page served here with the same strict CSP the dashboard sends.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import {
  launchBrowser,
  newAccessibilityContext,
  seriousAccessibilityViolations,
} from '../support/browser.ts'

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'"

function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<main>
<h1>Deployments</h1>
${body}
</main>
</body>
</html>`
}

const pages: Record<string, string> = {
  '/': htmlPage(
    'Deployments — Shiplog',
    `<form method="get" action="/">
<label for="service">Service</label>
<input id="service" name="service" type="text">
<button type="submit">Filter</button>
</form>`,
  ),
  // Broken on purpose: a link whose only content is an image without alt, and an unlabelled input.
  '/broken': htmlPage(
    'Broken — Shiplog',
    `<a href="/"><img src="/logo.png"></a>
<form method="get" action="/"><input name="service" type="text"></form>`,
  ),
}

let server: ReturnType<typeof Bun.serve>
let browser: Browser | undefined
let origin: string

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const path = new URL(request.url).pathname
      const headers = { 'content-security-policy': CSP }
      if (path === '/app.js') {
        return new Response("document.documentElement.dataset.scripted = 'yes'\n", {
          headers: { ...headers, 'content-type': 'text/javascript' },
        })
      }
      if (path === '/app.css') {
        return new Response('body { font-family: sans-serif }\n', {
          headers: { ...headers, 'content-type': 'text/css' },
        })
      }
      const html = pages[path]
      if (html === undefined) return new Response('not found', { status: 404, headers })
      return new Response(html, { headers: { ...headers, 'content-type': 'text/html' } })
    },
  })
  origin = `http://127.0.0.1:${server.port}`
})

afterAll(async () => {
  await browser?.close()
  server?.stop(true)
})

async function theBrowser(): Promise<Browser> {
  browser ??= await launchBrowser()
  return browser
}

test('Chromium loads the page under its CSP and runs only same-origin scripts', async () => {
  const context = await (await theBrowser()).newContext()
  try {
    const page = await context.newPage()
    const response = await page.goto(`${origin}/`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-security-policy']).toBe(CSP)
    expect(await page.locator('h1').textContent()).toBe('Deployments')
    await page.waitForFunction(() => document.documentElement.dataset.scripted === 'yes')
    // In an ordinary context the CSP holds: an inline script is refused, and so is the checker.
    await expect(page.addScriptTag({ content: 'window.inlineRan = true' })).rejects.toThrow(
      /Content Security Policy/,
    )
    expect(await page.evaluate(() => 'inlineRan' in window)).toBe(false)
    await expect(seriousAccessibilityViolations(page)).rejects.toThrow(/newAccessibilityContext/)
  } finally {
    await context.close()
  }
}, 30_000)

/** What axe-core finds serious on a page of the test server, in a context it may run in. */
async function violationsAt(path: string): Promise<string[]> {
  const context = await newAccessibilityContext(await theBrowser())
  try {
    const page = await context.newPage()
    await page.goto(`${origin}${path}`)
    return await seriousAccessibilityViolations(page)
  } finally {
    await context.close()
  }
}

test('axe-core finds no serious violations on an accessible page', async () => {
  expect(await violationsAt('/')).toEqual([])
}, 30_000)

test('axe-core reports the violations on a broken page, so the check cannot silently pass', async () => {
  const violations = await violationsAt('/broken')
  expect(violations.some((v) => v.startsWith('image-alt: '))).toBe(true)
  expect(violations.some((v) => v.startsWith('link-name: '))).toBe(true)
  expect(violations.some((v) => v.startsWith('label: '))).toBe(true)
}, 30_000)
