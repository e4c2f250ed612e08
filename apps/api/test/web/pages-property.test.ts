import { afterAll, beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import fc from 'fast-check'
import { futureTime, lookalikeName, redirectTarget } from '../edge-inputs.ts'
import { type Harness, startHarness, validDeployment } from '../harness.ts'
import { startProvider, type TestProvider } from '../sign-in/oidc-provider.ts'
import { ssoEnv } from '../sign-in/served-sso.ts'

// Whatever a browser (or anyone) sends to the dashboard, signed in or not, with or without the
// session's CSRF token: an HTML page, a redirect or a 4xx, never a 5xx, and nothing changes
// without the token. Single sign-on is on (a real provider runs), so its pages are fuzzed too;
// answers at its callback are fuzzed in ../sign-in/refusals.test.ts.

let h: Harness
let provider: TestProvider
let cookie: string
let csrf: string
let deploymentId: string
let keyId: string

const pageOf = (response: Response) => response.text()

/**
 * A redirect stays on this site: a path, never `//host`, `/\host` or another scheme; the one
 * exception is starting single sign-on, which goes to the configured provider's own endpoint.
 */
function expectSameSite(response: Response) {
  const location = response.headers.get('location')
  if (location === null) return
  if (new URL(location, 'http://shiplog.test').origin === new URL(provider.issuer).origin) {
    expect(new URL(location).searchParams.get('code_challenge_method')).toBe('S256')
    return
  }
  expect({ location, sameSite: /^\/(?![/\\])/.test(location) }).toEqual({
    location,
    sameSite: true,
  })
}

beforeAll(async () => {
  provider = await startProvider('http://shiplog.test')
  h = await startHarness({
    READ_CONCURRENCY_PER_KEY: '1000',
    // Every run may start a sign-in, which spends the address's budget.
    UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '1000000',
    ...ssoEnv(provider.issuer, 'http://shiplog.test'),
  })
  const { key, id } = await issueApiKey(h.sql, {
    workspace: 'acme',
    name: 'fuzz',
    scopes: ['read', 'admin', 'incidents:write'],
    rateLimitPerMinute: 10_000_000,
  })
  keyId = id
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
afterAll(async () => {
  await h?.close()
  await provider?.stop()
})

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
    'staging',
    'rollback',
    '7d',
    'previous-quarter',
    '2026-05-01',
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
  lookalikeName,
  futureTime,
  redirectTarget,
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
  'from',
  'to',
  'changeType',
  'range',
  'title',
  'startedAt',
  'causeDeploymentId',
  'reason',
  'confirm',
  'unknown',
  'code',
  'state',
  'iss',
  'error',
  'lost',
  'signed-out',
  'revoked',
  'workspace',
  'name',
  'scope',
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
  '/ui/compare',
  '/ui/compare.md',
  '/ui/deployments.csv',
  '/robots.txt',
  '/ui/sign-in',
  '/ui/sign-in/sso',
  '/ui/sign-in/callback',
  '/ui/keys',
  '/ui/incidents/not-a-uuid',
  '/ui/incidents/01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4',
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
      expectSameSite(response)
      if (response.status === 200 && !/\.(csv|md|txt)$/.test(path)) {
        expect(response.headers.get('content-type')).toContain('text/html')
        expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
        expect(body).not.toContain('<script>alert(1)</script>')
      }
    }),
    { numRuns: 300 },
  )
  // The runs reached rendered pages, rejected queries and sign-in redirects alike.
  for (const reached of ['true 200', 'true 422', 'false 303', 'false 400']) {
    expect(seen).toContain(reached)
  }
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
}, 120_000)

const posts = fc.constantFrom(
  '/ui/sign-in',
  '/ui/sign-out',
  '/ui/incidents',
  '/ui/incidents/01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4/resolve',
  '/ui/incidents/nope/resolve',
  '/ui/deployments/nope/void',
  '/ui/keys',
  '/ui/keys/01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4/revoke',
  '/ui/keys/nope/revoke',
  '/ui/workspace',
  'VOID',
  'REVOKE',
)

test('property: any form post is answered without a 5xx; without the session token nothing changes', async () => {
  const changes = () => h.sql`select (select count(*) from incidents) as incidents,
    (select count(*) from deployments where voided_at is not null) as voided,
    (select count(*) from api_keys) as keys,
    (select count(*) from api_keys where revoked_at is not null) as revoked,
    (select count(*) from audit_events) as events`
  const before = await changes()
  await fc.assert(
    fc.asyncProperty(
      posts,
      fields,
      fc.constantFrom('application/x-www-form-urlencoded', 'text/plain', ''),
      fc.oneof(fc.constant(undefined), fc.string({ maxLength: 50 })),
      async (target, entries, type, token) => {
        const path =
          target === 'VOID'
            ? `/ui/deployments/${deploymentId}/void`
            : target === 'REVOKE'
              ? `/ui/keys/${keyId}/revoke`
              : target
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
        expectSameSite(response)
      },
    ),
    { numRuns: 300 },
  )
  // No random token matches the session's: nothing was opened, resolved, voided, created or revoked.
  expect(await changes()).toEqual(before)
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
  // Refused, it is the form again with what was typed, not a bare problem page.
  const late = await post('/ui/incidents', {
    title: 'Kept <b>as typed</b>',
    environment: 'production',
    startedAt: 'tomorrow',
  })
  expect(late.status).toBe(422)
  const form = await late.text()
  expect(form).toContain('value="Kept &lt;b&gt;as typed&lt;/b&gt;"')
  expect(form).toContain('aria-invalid="true"')
  const opened = await post('/ui/incidents', { title: 'Errors', environment: 'production' })
  expect(opened.status).toBe(303)
  expect(await h.sql`select 1 from incidents where title = 'Errors'`).toHaveLength(1)
  const created = await post('/ui/keys', { name: 'from the page', scope: 'read' })
  expect(created.status).toBe(200)
  expect(await created.text()).toMatch(/id="new-key">shiplog_/)
  const unknownScope = await post('/ui/keys', { name: 'x', scope: 'root' })
  expect(unknownScope.status).toBe(422)
  // A key's session has no other workspace to switch to.
  expect((await post('/ui/workspace', { workspace: 'beta' })).status).toBe(403)
})

test('a NUL, or a bidi override in a name, in any filter of any page is a 4xx page, never a query', async () => {
  const cases = [
    '/ui?repository=a%00b',
    '/ui/deployments?app=%00',
    '/ui/deployments?environment=%00',
    '/ui/dora?environment=%00',
    '/ui/dora?environment=production&app=%00',
    '/ui/incidents?environment=%00',
  ]
  // A bidi override in a name filter is refused as the API refuses it, never a silent no-match.
  const overridden = cases.map((path) => path.replace('%00', '%E2%80%AE'))
  for (const path of [...cases, ...overridden]) {
    const response = await h.api.fetch(
      new Request(`http://shiplog.test${path}`, { headers: { cookie } }),
    )
    expect({ path, status: response.status }).toEqual({ path, status: 422 })
    expect(await response.text()).toContain('<h1>')
  }
  const forms: [string, Record<string, string>][] = [
    ['/ui/incidents', { title: 'a\u0000b', environment: 'production' }],
    ['/ui/incidents', { title: 'x', environment: 'production', app: '\u0000' }],
    ['/ui/incidents', { title: 'x', environment: 'production', app: 'api\u202E' }],
    ['/ui/incidents', { title: 'x', environment: 'production', app: 'never-deployed' }],
    [`/ui/deployments/${deploymentId}/void`, { reason: 'a\u0000b', confirm: 'yes' }],
    ['/ui/keys', { name: 'a\u0000b', scope: 'read' }],
  ]
  for (const [path, fields] of forms) {
    const response = await post(path, fields)
    expect({ path, fields, status: response.status }).toEqual({ path, fields, status: 422 })
  }
  expect(await h.sql`select 1 from deployments where voided_at is not null`).toHaveLength(0)
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
})
