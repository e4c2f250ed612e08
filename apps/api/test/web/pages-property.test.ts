import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { futureTime, lookalikeName, redirectTarget } from '../support/edge-inputs.ts'
import { type FuzzedDashboard, startFuzzedDashboard } from '../support/fuzzed-dashboard.ts'
import type { Harness } from '../support/harness.ts'
import type { TestProvider } from '../support/oidc-provider.ts'

// Whatever a browser (or anyone) sends to the dashboard, signed in or not, with or without the
// session's CSRF token: an HTML page, a redirect or a 4xx, never a 5xx, and nothing changes
// without the token. Single sign-on is on (a real provider runs), so its pages are fuzzed too;
// answers at its callback are fuzzed in ../sign-in/refusals.test.ts.

let dashboard: FuzzedDashboard
let h: Harness
let provider: TestProvider
let cookie: string
let deploymentId: string
let keyId: string

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
  dashboard = await startFuzzedDashboard()
  ;({ h, provider, cookie, deploymentId, keyId } = dashboard)
}, 60_000)
afterAll(() => dashboard?.close())

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
    'lead-time',
    'fail-rate',
    'asc',
    'desc',
    'all',
    'true',
    'false',
    '0001-01-01',
    '0001-01-02T00:00:00Z',
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
  'sort',
  'order',
  'applications',
  'failed',
  'rework',
  'production',
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
  '/ui/dora.csv',
  '/ui/incidents',
  '/ui/compare',
  '/ui/compare.md',
  '/ui/deployments.csv',
  '/ui/commits',
  '/ui/commits.csv',
  '/robots.txt',
  '/ui/sign-in',
  '/ui/sign-in/sso',
  '/ui/sign-in/callback',
  '/ui/keys',
  '/ui/integrations',
  '/ui/integrations/not-a-uuid',
  '/ui/integrations/01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4',
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
  '/ui/integrations',
  '/ui/integrations/01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4/secret',
  '/ui/integrations/nope/secret',
  '/ui/integrations/01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4/delete',
  '/ui/workspace',
  'VOID',
  'REVOKE',
)

test('property: any form post is answered without a 5xx; without the session token nothing changes', async () => {
  const changes = () => h.sql`select (select count(*) from incidents) as incidents,
    (select count(*) from deployments where voided_at is not null) as voided,
    (select count(*) from api_keys) as keys,
    (select count(*) from api_keys where revoked_at is not null) as revoked,
    (select count(*) from integrations) as integrations,
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
  // No random token matches the session's: nothing was opened, resolved, voided, created, rotated
  // or revoked.
  expect(await changes()).toEqual(before)
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
}, 120_000)
