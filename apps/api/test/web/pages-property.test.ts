import { afterAll, beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import fc from 'fast-check'
import { type Harness, startHarness, validDeployment } from '../harness.ts'

// Whatever a browser (or anyone) sends to the dashboard, signed in or not, with or without the
// session's CSRF token: an HTML page, a redirect or a 4xx, never a 5xx, and nothing changes
// without the token.

let h: Harness
let cookie: string
let csrf: string
let deploymentId: string

const pageOf = (response: Response) => response.text()

beforeAll(async () => {
  h = await startHarness({ READ_CONCURRENCY_PER_KEY: '1000' })
  const { key } = await issueApiKey(h.sql, {
    workspace: 'acme',
    name: 'fuzz',
    scopes: ['read', 'admin', 'incidents:write'],
    rateLimitPerMinute: 10_000_000,
  })
  expect((await h.post(validDeployment({ app: 'api', environment: 'production' }))).status).toBe(
    202,
  )
  await h.drain()
  const [row] = await h.sql<{ id: string }[]>`select id from deployments limit 1`
  deploymentId = row?.id ?? ''
  const signIn = await h.api.fetch(
    new Request('http://shiplog.test/ui/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key, next: '/ui' }),
    }),
  )
  expect(signIn.status).toBe(303)
  cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const incidents = await pageOf(
    await h.api.fetch(new Request('http://shiplog.test/ui/incidents', { headers: { cookie } })),
  )
  csrf = /name="csrf" value="([^"]+)"/.exec(incidents)?.[1] ?? ''
  expect(csrf).not.toBe('')
}, 60_000)
afterAll(() => h?.close())

const text = fc.oneof(
  fc.constantFrom(
    '',
    'production',
    'PRODUCTION',
    'api',
    'acme/shop',
    '2026-05-01T00:00:00Z',
    '2024-02-30T00:00:00Z',
    '9999-12-31T23:59:59.999999Z',
    'recorded',
    'queued',
    'failed',
    'open',
    'resolved',
    '12',
    '-1',
    'abcd',
    '<script>alert(1)</script>',
    '%00',
    '\u0000',
    '\uD800',
    'x'.repeat(5_000),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
)
const names = fc.constantFrom(
  'app',
  'environment',
  'repository',
  'version',
  'commitHash',
  'since',
  'until',
  'status',
  'cursor',
  'limit',
  'weeks',
  'bucket',
  'next',
  'voided',
  'notice',
  'unknown',
)
const fields = fc.array(fc.tuple(names, text), { maxLength: 6 })
const paths = fc.constantFrom(
  '/',
  '/ui',
  '/ui/',
  '/ui/deployments',
  '/ui/deployments/not-a-uuid',
  '/ui/deployments/01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4',
  '/ui/dora',
  '/ui/incidents',
  '/ui/sign-in',
  '/ui/nowhere',
)

function query(entries: [string, string][]): string {
  const params = new URLSearchParams()
  for (const [name, value] of entries) params.append(name, value)
  return params.toString()
}

const seen = new Set<string>()
test('property: any page with any query answers a page, a redirect or a 4xx, signed in or not', async () => {
  await fc.assert(
    fc.asyncProperty(paths, fields, fc.boolean(), async (path, entries, signedIn) => {
      const url = `http://shiplog.test${path}?${query(entries)}`
      const response = await h.api.fetch(new Request(url, { headers: signedIn ? { cookie } : {} }))
      const body = await response.text()
      seen.add(`${signedIn} ${response.status}`)
      expect({ url, status: response.status < 500 }).toEqual({ url, status: true })
      if (response.status === 200) {
        expect(response.headers.get('content-type')).toContain('text/html')
        expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
        expect(body).not.toContain('<script>alert(1)</script>')
      }
    }),
    { numRuns: 300 },
  )
  // The runs reached rendered pages, rejected queries and sign-in redirects alike.
  for (const reached of ['true 200', 'true 422', 'false 303']) expect(seen).toContain(reached)
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
}, 120_000)

const posts = fc.constantFrom(
  '/ui/sign-in',
  '/ui/sign-out',
  '/ui/incidents',
  '/ui/incidents/01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4/resolve',
  '/ui/incidents/nope/resolve',
  '/ui/deployments/nope/void',
  'VOID',
)

test('property: any form post is answered without a 5xx; without the session token nothing changes', async () => {
  const before = await h.sql`select (select count(*) from incidents) as incidents,
                                    (select count(*) from deployments where voided_at is not null) as voided`
  await fc.assert(
    fc.asyncProperty(
      posts,
      fields,
      fc.constantFrom('application/x-www-form-urlencoded', 'text/plain', ''),
      fc.oneof(fc.constant(undefined), fc.string({ maxLength: 50 })),
      async (target, entries, type, token) => {
        const path = target === 'VOID' ? `/ui/deployments/${deploymentId}/void` : target
        const form = query([
          ...entries,
          ...(token === undefined ? [] : [['csrf', token] as [string, string]]),
        ])
        const response = await h.api.fetch(
          new Request(`http://shiplog.test${path}`, {
            method: 'POST',
            headers: { cookie, ...(type ? { 'content-type': type } : {}) },
            body: form,
          }),
        )
        await response.text()
        expect({ path, form, status: response.status < 500 }).toEqual({ path, form, status: true })
      },
    ),
    { numRuns: 300 },
  )
  // No random token matches the session's, so nothing was opened, resolved or voided.
  const after = await h.sql`select (select count(*) from incidents) as incidents,
                                   (select count(*) from deployments where voided_at is not null) as voided`
  expect(after).toEqual(before)
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
}, 120_000)

/** A form posted from the session's own pages: its cookie and its CSRF token. */
const post = (path: string, fields: Record<string, string>) =>
  h.api.fetch(
    new Request(`http://shiplog.test${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, ...fields }),
    }),
  )

test('with the session token, the forms do what they say (and bad input is a 4xx page)', async () => {
  const bad = await post('/ui/incidents', { title: 'x', environment: 'nowhere' })
  expect(bad.status).toBe(422)
  expect(await bad.text()).toContain('has no deployments in your workspace')
  const opened = await post('/ui/incidents', { title: 'Errors', environment: 'production' })
  expect(opened.status).toBe(303)
  expect(await h.sql`select 1 from incidents where title = 'Errors'`).toHaveLength(1)
})

test('a NUL in any filter of any page is a 4xx page, never a query (Postgres refuses NUL)', async () => {
  const cases = [
    '/ui?repository=a%00b',
    '/ui/deployments?app=%00',
    '/ui/deployments?environment=%00',
    '/ui/dora?environment=%00',
    '/ui/dora?environment=production&app=%00',
    '/ui/incidents?environment=%00',
  ]
  for (const path of cases) {
    const response = await h.api.fetch(
      new Request(`http://shiplog.test${path}`, { headers: { cookie } }),
    )
    expect({ path, status: response.status }).toEqual({ path, status: 422 })
    expect(await response.text()).toContain('<h1>')
  }
  const forms: [string, Record<string, string>][] = [
    ['/ui/incidents', { title: 'a\u0000b', environment: 'production' }],
    ['/ui/incidents', { title: 'x', environment: 'production', app: '\u0000' }],
    [`/ui/deployments/${deploymentId}/void`, { reason: 'a\u0000b', confirm: 'yes' }],
  ]
  for (const [path, fields] of forms) {
    const response = await post(path, fields)
    expect({ path, fields, status: response.status }).toEqual({ path, fields, status: 422 })
  }
  expect(await h.sql`select 1 from deployments where voided_at is not null`).toHaveLength(0)
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
})
