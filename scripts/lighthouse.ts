// `bun run lighthouse`: Lighthouse (the npm package, on Debian's Chromium) on every page of the
// dashboard, signed in, over a small scripted history; writes the four category scores of each
// page into docs/dashboard.md between its `lighthouse` markers. A check like a benchmark: it
// takes a minute or two and fails (exit 1) when a score is under 95. DATABASE_URL picks the
// Postgres, as for tests.
import { readFile, writeFile } from 'node:fs/promises'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { randomPort } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import lighthouse from 'lighthouse'
import { launchBrowser } from '../apps/api/test/support/browser.ts'
import { type Harness, startHarness } from '../apps/api/test/support/harness.ts'

const DOC = new URL('../docs/dashboard.md', import.meta.url)
const TARGET = 95
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const RUNS = 3
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const log = (message: string) => console.log(`[lighthouse] ${message}`)
const sha = (name: string) => Buffer.from(name).toString('hex').padEnd(40, '0').slice(0, 40)

/** A week of two applications through dev, staging and production, with commit lists. */
async function seed(h: Harness, key: string): Promise<string> {
  let last = ''
  const day = (n: number, hour: number) => new Date(Date.UTC(2026, 4, n, hour)).toISOString()
  for (const app of ['checkout', 'search']) {
    for (let n = 1; n <= 6; n++) {
      for (const [environment, hour] of [
        ['dev', 8],
        ['staging', 10],
        ['production', 14],
      ] as const) {
        if (environment === 'production' && n > 4) continue
        const response = await h.post(
          validDeployment({
            app,
            environment,
            version: `1.${n}.0`,
            commitHash: sha(`${app}${n}`),
            deployedAt: day(n, hour),
            author: 'release-bot',
          }),
          { key },
        )
        last = (response.headers.get('location') as string).split('/').at(-1) as string
        const committedAt = day(n, 6)
        await h.send('PUT', `/v1/deployments/${last}/commits`, {
          key,
          body: {
            commits: [
              {
                sha: sha(`${app}${n}`),
                committedAt,
                authoredAt: committedAt,
                reverts: [],
                subject: `Release ${n} of ${app}`,
                author: 'Ada',
              },
            ],
            webUrl: 'https://github.com/acme/shop',
          },
        })
      }
    }
  }
  await h.drain()
  return last
}

async function signIn(base: string, key: string): Promise<string> {
  const response = await fetch(`${base}/ui/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key, next: '/ui' }),
    redirect: 'manual',
  })
  const cookie = response.headers.get('set-cookie')?.split(';')[0]
  if (response.status !== 303 || !cookie) throw new Error(`sign-in answered ${response.status}`)
  return cookie
}

type Scores = Record<(typeof CATEGORIES)[number], number>

function markdown(rows: [string, Scores][], date: string): string {
  const cell = (score: number) => (score >= TARGET ? String(score) : `**${score}**`)
  return `Produced by \`bun run lighthouse\` on ${date}: Lighthouse 12.2.3
(its default mobile profile: a mid-range phone, simulated slow 4G) in Debian's Chromium, headless,
on each page signed in, over a week of two applications through dev, staging and production.
Each page three times; each score the median of its three. Target: each score ≥ ${TARGET}.

| Page | Performance | Accessibility | Best practices | SEO |
|---|---:|---:|---:|---:|
${rows.map(([page, s]) => `| \`${page}\` | ${cell(s.performance)} | ${cell(s.accessibility)} | ${cell(s['best-practices'])} | ${cell(s.seo)} |`).join('\n')}`
}

async function writeSection(text: string): Promise<void> {
  const doc = await readFile(DOC, 'utf8')
  const start = '<!-- lighthouse:start -->'
  const end = '<!-- lighthouse:end -->'
  const from = doc.indexOf(start)
  const to = doc.indexOf(end)
  if (from < 0 || to < from) throw new Error('docs/dashboard.md has no lighthouse markers')
  await writeFile(DOC, `${doc.slice(0, from + start.length)}\n${text}\n${doc.slice(to)}`)
}

const h = await startHarness()
const served = await h.serve()
// Chromium as the browser tests launch it, headless, with a port Lighthouse drives it through.
const port = randomPort()
const chrome = await launchBrowser([`--remote-debugging-port=${port}`])
try {
  const { key } = await issueApiKey(h.sql, {
    workspace: 'lighthouse',
    name: 'pages',
    // Admin too, so the keys page renders as an administrator sees it.
    scopes: ['read', 'incidents:write', 'deployments:write', 'admin'],
    rateLimitPerMinute: 1_000_000,
  })
  const deployment = await seed(h, key)
  const opened = await h.send('POST', '/v1/incidents', {
    key,
    body: { app: 'checkout', environment: 'production', title: 'Totals are off by a cent' },
  })
  const incident = ((await opened.json()) as { id: string }).id
  const cookie = await signIn(served.base, key)
  const pages = [
    '/ui/sign-in',
    '/ui',
    '/ui/compare?app=checkout&from=staging&to=production',
    '/ui/deployments',
    `/ui/deployments/${deployment}`,
    '/ui/dora',
    '/ui/commits',
    '/ui/incidents',
    `/ui/incidents/${incident}`,
    '/ui/keys',
  ]
  const rows: [string, Scores][] = []
  for (const page of pages) {
    // Each page three times, each category's median: a shared machine's noise moves a run.
    const runs: Scores[] = []
    for (let run = 0; run < RUNS; run++) {
      const result = await lighthouse(served.base + page, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        // Signed in, except on the sign-in page itself.
        ...(page === '/ui/sign-in' ? {} : { extraHeaders: { Cookie: cookie } }),
      })
      const categories = result?.lhr.categories ?? {}
      runs.push(
        Object.fromEntries(
          CATEGORIES.map((name) => [name, Math.round((categories[name]?.score ?? 0) * 100)]),
        ) as Scores,
      )
      const failing = Object.values(result?.lhr.audits ?? {})
        .filter((audit) => audit.score !== null && audit.score < 1 && audit.id !== 'bf-cache')
        .map(
          (audit) =>
            `${audit.id} (${audit.score}${audit.explanation ? `: ${audit.explanation}` : ''}${audit.displayValue ? `; ${audit.displayValue}` : ''})`,
        )
      if (failing.length > 0) log(`  ${page} run ${run + 1}, below 1: ${failing.join(', ')}`)
    }
    const scores = Object.fromEntries(
      CATEGORIES.map((name) => [name, median(runs.map((run) => run[name]))]),
    ) as Scores
    log(`${page}: ${CATEGORIES.map((name) => `${name} ${scores[name]}`).join(', ')}`)
    rows.push([page.replace(/[0-9a-f-]{36}/, '{id}'), scores])
  }
  await writeSection(markdown(rows, new Date().toISOString().slice(0, 10)))
  log('wrote the lighthouse section of docs/dashboard.md')
  if (rows.some(([, scores]) => CATEGORIES.some((name) => scores[name] < TARGET))) {
    log(`FAILED: a score is under ${TARGET}`)
    process.exitCode = 1
  }
} finally {
  await chrome.close()
  await served.stop()
  await h.close()
}
