import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type FuzzedDashboard, startFuzzedDashboard } from '../support/fuzzed-dashboard.ts'
import type { Harness } from '../support/harness.ts'

// The dashboard's forms with the session's token do what they say, and the inputs the fuzz test
// found (a NUL, a bidi override) are a 4xx page on every filter and form, never a query.

let dashboard: FuzzedDashboard
let h: Harness
let cookie: string
let deploymentId: string
let post: FuzzedDashboard['post']

beforeAll(async () => {
  dashboard = await startFuzzedDashboard()
  ;({ h, cookie, deploymentId, post } = dashboard)
}, 60_000)
afterAll(() => dashboard?.close())

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
