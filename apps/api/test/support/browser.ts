// End-to-end browser helpers: Debian's Chromium (/usr/bin/chromium, installed by .ci/run) driven by
// playwright-core, and an accessibility pass by axe-core inside the page.
import type { AxeResults, RunOptions } from 'axe-core'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

/**
 * Launches Debian's Chromium headless with the flags this environment needs, and `extra` ones
 * (`--remote-debugging-port` for Lighthouse).
 */
export async function launchBrowser(extra: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    // No sandbox (root in containers), no GPU, and nothing that phones home: without the
    // networking flags Chromium keeps retrying Google services on the closed network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extra,
    ],
  })
}

/**
 * A context for the accessibility pass only. The pages under test send a strict
 * Content-Security-Policy (script-src 'self'), which blocks both an inline <script> carrying
 * axe-core and the `new Function` axe uses internally. This context bypasses CSP so that the
 * checker itself can be injected; the page's real CSP is untouched for users, and tests assert
 * it separately in an ordinary context (see browser-smoke.test.ts).
 */
export async function newAccessibilityContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ bypassCSP: true })
}

let axeSource: Promise<string> | undefined
function axeCoreSource(): Promise<string> {
  axeSource ??= Bun.file(require.resolve('axe-core/axe.min.js')).text()
  return axeSource
}

/** Every violation axe-core finds on the page as it is now: "rule-id (impact): target — help". */
export async function allAccessibilityViolations(page: Page): Promise<string[]> {
  return (await violationsOf(page)).flatMap((v) =>
    v.targets.map((target) => `${v.id} (${v.impact}): ${target} — ${v.help}`),
  )
}

/**
 * Violations of impact 'serious' or 'critical' that axe-core finds on the page as it is now, as
 * short strings "rule-id: target — help". The page must belong to a context from
 * newAccessibilityContext, or injecting axe-core fails under the page's CSP.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  return (await violationsOf(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.targets.map((target) => `${v.id}: ${target} — ${v.help}`))
}

async function violationsOf(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) {
    try {
      await page.addScriptTag({ content: await axeCoreSource() })
    } catch (cause) {
      throw new Error('could not inject axe-core: is the page in a newAccessibilityContext?', {
        cause,
      })
    }
  }
  const options: RunOptions = { resultTypes: ['violations'] }
  // Runs in the browser: only the (serialisable) options cross over, types are erased.
  const results = await page.evaluate(
    (runOptions) =>
      (window as unknown as { axe: { run(c: Document, o: RunOptions): Promise<AxeResults> } }).axe
        .run(document, runOptions)
        .then((r) =>
          r.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            targets: v.nodes.map((n) => n.target.map((t) => String(t)).join(' ')),
          })),
        ),
    options,
  )
  return results
}
