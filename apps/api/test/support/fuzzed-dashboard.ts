import { expect } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import { type Harness, startHarness } from './harness.ts'
import { startProvider, type TestProvider } from './oidc-provider.ts'
import { ssoEnv } from './served-sso.ts'

// The dashboard as the pages' fuzz tests meet it: single sign-on on (a real provider runs), one
// recorded deployment, and a session signed in with an admin key whose CSRF token is known.

export interface FuzzedDashboard {
  h: Harness
  provider: TestProvider
  cookie: string
  csrf: string
  deploymentId: string
  keyId: string
  /** A form posted from the session's own pages: its cookie and its CSRF token. */
  post: (path: string, fields: Record<string, string>) => Promise<Response>
  close: () => Promise<void>
}

export async function startFuzzedDashboard(): Promise<FuzzedDashboard> {
  const provider = await startProvider('http://shiplog.test')
  const h = await startHarness({
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
  expect((await h.post(validDeployment({ app: 'api', environment: 'production' }))).status).toBe(
    202,
  )
  await h.drain()
  const [row] = await h.sql<{ id: string }[]>`select id from deployments limit 1`
  const deploymentId = row?.id ?? ''
  const signIn = await h.api.fetch(
    new Request('http://shiplog.test/ui/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key, next: '/ui' }),
    }),
  )
  expect(signIn.status).toBe(303)
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const incidentsPage = await h.api.fetch(
    new Request('http://shiplog.test/ui/incidents', { headers: { cookie } }),
  )
  const incidents = await incidentsPage.text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(incidents)?.[1] ?? ''
  expect(csrf).not.toBe('')
  const post = async (path: string, fields: Record<string, string>) =>
    h.api.fetch(
      new Request(`http://shiplog.test${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, ...fields }),
      }),
    )
  const close = async () => {
    await h.close()
    await provider.stop()
  }
  return { h, provider, cookie, csrf, deploymentId, keyId: id, post, close }
}
