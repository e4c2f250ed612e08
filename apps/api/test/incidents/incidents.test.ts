import { beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import type { Scope } from '@shiplog/schema'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

// Incidents through HTTP against a real database: opened by a key with incidents:write, tied to
// the recorded deployment that caused them, resolved, listed, and refused with a 4xx problem for
// anything that cannot be stored.

const h = harnessPerFile()
let writer: string
let reader: string
let causeId: string
let stagingId: string

beforeAll(async () => {
  const issue = async (scopes: Scope[]) =>
    (await issueApiKey(h.sql, { workspace: 'acme', name: 'test', scopes })).key
  writer = await issue(['incidents:write', 'read'])
  reader = await issue(['read'])
  const deployed = (overrides: Record<string, unknown>) => h.deploy(validDeployment(overrides))
  causeId = await deployed({ version: '2.0.0', deployedAt: '2026-05-04T10:00:00Z' })
  stagingId = await deployed({ environment: 'staging', deployedAt: '2026-05-04T09:00:00Z' })
  await deployed({ environment: 'staging', app: 'billing', deployedAt: '2026-05-04T08:00:00Z' })
  expect(await h.drain()).toBe(3)
})

const open = (body: unknown, key = writer) => h.send('POST', '/v1/incidents', { key, body })
const patch = (id: string, body: unknown, key = writer) =>
  h.send('PATCH', `/v1/incidents/${id}`, { key, body })

test('an incident caused by a deployment starts at its deployedAt, and resolves', async () => {
  const created = await open({
    environment: 'Production',
    app: 'checkout',
    title: 'Checkout returns 500s',
    causeDeploymentId: causeId,
  })
  expect(created.status).toBe(201)
  const incident = await created.json()
  expect(created.headers.get('location')).toBe(`/v1/incidents/${incident.id}`)
  expect(incident).toMatchObject({
    status: 'open',
    environment: 'production',
    app: 'checkout',
    title: 'Checkout returns 500s',
    startedAt: '2026-05-04T10:00:00.000Z',
    resolvedAt: null,
    causeDeploymentId: causeId,
  })

  const resolved = await patch(incident.id, { resolvedAt: '2026-05-04T10:45:00Z' })
  expect(resolved.status).toBe(200)
  expect(await resolved.json()).toMatchObject({
    id: incident.id,
    status: 'resolved',
    resolvedAt: '2026-05-04T10:45:00.000Z',
  })
  const read = await h.get(`/v1/incidents/${incident.id}`, { key: reader })
  expect(read.status).toBe(200)
  expect(await read.json()).toMatchObject({ status: 'resolved', causeDeploymentId: causeId })

  // Reopened, then the cause cleared.
  expect(await (await patch(incident.id, { resolvedAt: null })).json()).toMatchObject({
    status: 'open',
    resolvedAt: null,
  })
  expect(await (await patch(incident.id, { causeDeploymentId: null })).json()).toMatchObject({
    causeDeploymentId: null,
  })
})

test('without a cause or startedAt it starts when it is opened; the list filters and pages', async () => {
  const before = Date.now()
  const created = await open({ environment: 'staging', title: 'Slow queries' })
  expect(created.status).toBe(201)
  const incident = await created.json()
  expect(Date.parse(incident.startedAt)).toBeGreaterThanOrEqual(before - 1_000)
  expect(incident.app).toBeNull()

  for (let index = 0; index < 3; index++) {
    const response = await open({
      environment: 'production',
      title: `Old ${index}`,
      startedAt: `2026-01-0${index + 1}T00:00:00Z`,
      resolvedAt: `2026-01-0${index + 1}T01:00:00Z`,
    })
    expect(response.status).toBe(201)
  }
  const list = async (query: string) => {
    const response = await h.get(`/v1/incidents${query}`, { key: reader })
    expect(response.status).toBe(200)
    return response.json()
  }
  const staging = await list('?environment=STAGING')
  expect(staging.data.map((each: { title: string }) => each.title)).toEqual(['Slow queries'])
  const resolved = await list('?status=resolved&limit=2')
  expect(resolved.data.map((each: { title: string }) => each.title)).toEqual(['Old 2', 'Old 1'])
  const next = await list(
    `?status=resolved&limit=2&cursor=${encodeURIComponent(resolved.nextCursor)}`,
  )
  expect(next.data.map((each: { title: string }) => each.title)).toEqual(['Old 0'])
  expect(next.nextCursor).toBeNull()
  const january = await list('?since=2026-01-02T00:00:00Z&until=2026-01-03T00:00:00Z')
  expect(january.data.map((each: { title: string }) => each.title)).toEqual(['Old 1'])
})

test('what cannot be stored is a 422 naming every field; unknown ids are 404', async () => {
  const problemOf = async (response: Response) => {
    expect(response.status).toBe(422)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    return ((await response.json()) as { errors: { field: string; message: string }[] }).errors
  }
  expect(await problemOf(await open({ environment: 'production', titel: 'x' }))).toEqual([
    { field: 'title', message: 'is required' },
    { field: 'titel', message: 'is not a known field; did you mean "title"?' },
  ])
  expect(await problemOf(await open({ environment: 'nowhere', title: 'x' }))).toEqual([
    {
      field: 'environment',
      message: 'has no deployments in your workspace: check its spelling, or record one first',
    },
  ])
  // A cause of another environment, then of another application.
  const wrongEnvironment = { environment: 'production', title: 'x', causeDeploymentId: stagingId }
  expect((await problemOf(await open(wrongEnvironment)))[0]?.message).toBe(
    "was deployed to staging, not to this incident's environment",
  )
  const wrongApp = { ...wrongEnvironment, app: 'billing', causeDeploymentId: causeId }
  expect((await problemOf(await open(wrongApp)))[0]?.message).toBe(
    "is a deployment of another application than this incident's",
  )
  const backwards = await open({
    environment: 'production',
    title: 'x',
    startedAt: '2026-05-04T10:00:00Z',
    resolvedAt: '2026-05-04T09:00:00Z',
  })
  expect(await problemOf(backwards)).toEqual([
    { field: 'resolvedAt', message: 'must not be before startedAt' },
  ])
  expect(
    await problemOf(
      await open({ environment: 'production', title: 'x', startedAt: 'yesterday', app: 7 }),
    ),
  ).toEqual([
    { field: 'app', message: 'must be a string' },
    { field: 'startedAt', message: expect.stringContaining('RFC 3339') },
  ])
  // A body that is not JSON is told what this endpoint takes, not a deployment's fields.
  const notJson = await h.send('POST', '/v1/incidents', {
    key: writer,
    headers: { 'content-type': 'application/json' },
    rawBody: '{"title": ',
  })
  expect(notJson.status).toBe(422)
  expect(await notJson.json()).toMatchObject({
    detail: 'The request body must be a JSON object with the incident fields.',
    errors: [{ field: 'body', message: expect.stringContaining('is not valid JSON') }],
  })
  const unknown = '01890a5d-ac96-774b-bcce-b302099a8057'
  expect((await patch(unknown, { title: 'y' })).status).toBe(404)
  expect((await h.get(`/v1/incidents/${unknown}`, { key: reader })).status).toBe(404)
})

test('an incident names an application of the workspace, and times at most 5 minutes ahead', async () => {
  const never = await open({ environment: 'production', app: 'never-deployed', title: 'x' })
  expect(never.status).toBe(422)
  expect((await never.json()).errors).toEqual([
    {
      field: 'app',
      message: expect.stringContaining(
        'is not an application of your workspace: its first recorded deployment creates it',
      ),
    },
  ])
  // Any case, in any repository, even one deployed to another environment only.
  expect((await open({ environment: 'production', app: 'BILLING', title: 'x' })).status).toBe(201)
  const ahead = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString()
  const future = await open({
    environment: 'production',
    title: 'x',
    startedAt: '9999-12-31T23:59:59Z',
    resolvedAt: ahead(10),
  })
  expect(future.status).toBe(422)
  expect((await future.json()).errors).toEqual([
    { field: 'startedAt', message: 'must not be more than 5 minutes in the future' },
    { field: 'resolvedAt', message: 'must not be more than 5 minutes in the future' },
  ])
  const skewed = await open({ environment: 'production', title: 'x', startedAt: ahead(4) })
  expect(skewed.status).toBe(201)
  const { id } = await skewed.json()
  const later = await patch(id, { resolvedAt: ahead(60) })
  expect(later.status).toBe(422)
  expect((await later.json()).errors[0].field).toBe('resolvedAt')
  expect((await patch(id, { startedAt: '9999-01-01T00:00:00Z' })).status).toBe(422)
})

test('opening and changing incidents needs incidents:write; reading them needs read', async () => {
  const refused = await open({ environment: 'production', title: 'x' }, reader)
  expect(refused.status).toBe(403)
  expect((await refused.json()).type).toBe('/problems/forbidden')
  // The default key (deployments:write, read) may read them but not open them.
  expect((await h.send('POST', '/v1/incidents', { body: { title: 'x' } })).status).toBe(403)
  expect((await h.get('/v1/incidents')).status).toBe(200)
})

const changesRecorded = async (id: string) => {
  const [row] = await h.sql<{ count: number }[]>`
    select count(*)::int as count from audit_events
     where target_id = ${id}::uuid and action = 'incident.changed'`
  return row?.count
}

test('two changes at once apply one after the other: a start moved past a resolution set meanwhile is a 422, never a 500', async () => {
  for (let trial = 0; trial < 15; trial++) {
    const created = await open({
      environment: 'staging',
      title: `Race ${trial}`,
      startedAt: '2026-05-04T09:00:00Z',
    })
    const { id } = await created.json()
    const answers = await Promise.all([
      patch(id, { resolvedAt: '2026-05-04T10:00:00Z' }),
      patch(id, { startedAt: '2026-05-04T11:00:00Z' }),
    ])
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses).toEqual([200, 422])
    const refused = answers.find((answer) => answer.status === 422)
    expect((await refused?.json())?.errors).toEqual([
      { field: 'resolvedAt', message: 'must not be before startedAt' },
    ])
    const stored = await (await h.get(`/v1/incidents/${id}`, { key: reader })).json()
    // Whichever came first is what stands, and the incident is still in order.
    expect(
      stored.resolvedAt === null || Date.parse(stored.resolvedAt) >= Date.parse(stored.startedAt),
    ).toBe(true)
    expect(await changesRecorded(id)).toBe(1)
  }
})

test('a change that changes nothing answers the incident as it is and records nothing; title or startedAt null is a 422', async () => {
  const created = await open({
    environment: 'staging',
    title: 'Nothing to change',
    startedAt: '2026-05-04T09:00:00Z',
  })
  const incident = await created.json()
  for (const body of [
    {},
    { title: 'Nothing to change' },
    { resolvedAt: null },
    { startedAt: '2026-05-04T09:00:00Z' },
    { causeDeploymentId: null, fixedByDeploymentId: null },
  ]) {
    const answer = await patch(incident.id, body)
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual(incident)
  }
  expect(await changesRecorded(incident.id)).toBe(0)

  for (const field of ['title', 'startedAt']) {
    const answer = await patch(incident.id, { [field]: null })
    expect(answer.status).toBe(422)
    expect((await answer.json()).errors).toEqual([
      { field, message: 'cannot be cleared: send a new value, or leave it out' },
    ])
  }
  // A real change is recorded once, with only what changed.
  const renamed = await patch(incident.id, { title: 'Renamed', resolvedAt: null })
  expect(renamed.status).toBe(200)
  expect(await changesRecorded(incident.id)).toBe(1)
  const [details] = await h.sql<{ details: Record<string, unknown> }[]>`
    select details from audit_events where target_id = ${incident.id}::uuid and action = 'incident.changed'`
  expect(details?.details).toEqual({ title: 'Renamed' })
})
