import { beforeAll, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import fc from 'fast-check'
import { API_ROUTES } from '../../src/routes.ts'
import { growingName, withRepeatedKey } from '../support/edge-inputs.ts'
import { harnessPerFile } from '../support/harness.ts'

// Two requests to the write endpoints at once, on the same records: whichever pair, each is
// answered with a 2xx or a documented 4xx (503 aside), never a 500. Every write route of the
// table has a generator here, so a new one cannot be left out.

const h = harnessPerFile()
let admin: string
const ids = { deployment: '', incident: '', integration: '' }

beforeAll(async () => {
  admin = (
    await h.createKey({ workspace: 'pairs', scopes: ['admin'], rateLimitPerMinute: 1_000_000 })
  ).key
  ids.deployment = await h.deploy(validDeployment({ version: 'base' }), { key: admin })
  await h.drain()
  const incident = await h.send('POST', '/v1/incidents', {
    key: admin,
    body: { environment: 'production', title: 'Down', startedAt: '2026-05-01T10:00:00Z' },
  })
  ids.incident = (await incident.json()).id
  const integration = await h.send('POST', '/v1/integrations', {
    key: admin,
    body: { source: 'github', name: 'pairs' },
  })
  ids.integration = (await integration.json()).id
})

const name = fc.oneof(
  fc.constantFrom('production', 'Production', 'staging', 'checkout'),
  growingName,
)
const time = fc.constantFrom(
  '2026-05-01T09:00:00Z',
  '2026-05-01T11:00:00Z',
  '2026-05-01T12:00:00Z',
  null,
  '0001-01-01T00:00:00Z',
)
const sha = fc.constantFrom('9fceb02d0ae598e95dc970b74767f19372d61af8', 'a'.repeat(40))

type Write = { method: string; path: string; body?: unknown; raw?: string }

// What each write route is sent: plausible bodies with edge values, on the shared records.
const WRITES: Record<string, fc.Arbitrary<Write>> = {
  'POST /v1/deployments': fc
    .record({ app: name, environment: name, version: fc.constantFrom('1', '2') })
    .map((body) => ({ method: 'POST', path: '/v1/deployments', body: validDeployment(body) })),
  'DELETE /v1/deployments/{id}': fc
    .option(fc.record({ reason: fc.string({ maxLength: 20 }) }))
    .map((body) => ({
      method: 'DELETE',
      path: `/v1/deployments/${ids.deployment}`,
      ...(body === null ? {} : { body }),
    })),
  'PUT /v1/deployments/{id}/commits': fc
    .array(fc.record({ sha, committedAt: time }), { maxLength: 3 })
    .map((commits) => ({
      method: 'PUT',
      path: `/v1/deployments/${ids.deployment}/commits`,
      body: { commits, truncated: false },
    })),
  'PUT /v1/environments/{name}': fc
    .record({ position: fc.integer({ min: -1, max: 1001 }), production: fc.boolean() })
    .chain((body) =>
      name.map((environment) => ({
        method: 'PUT',
        path: `/v1/environments/${encodeURIComponent(environment)}`,
        body,
      })),
    ),
  'POST /v1/incidents': fc
    .record({ environment: name, app: name, title: fc.constantFrom('Down', ''), startedAt: time })
    .map((body) => ({ method: 'POST', path: '/v1/incidents', body })),
  'PATCH /v1/incidents/{id}': fc
    .record(
      { startedAt: time, resolvedAt: time, title: fc.constantFrom('Again', null) },
      { requiredKeys: [] },
    )
    .map((body) => ({ method: 'PATCH', path: `/v1/incidents/${ids.incident}`, body })),
  'POST /v1/integrations': fc
    .record({ source: fc.constantFrom('github', 'gitlab'), name })
    .map((body) => ({ method: 'POST', path: '/v1/integrations', body })),
  'PATCH /v1/integrations/{id}': fc
    .record({ name }, { requiredKeys: [] })
    .map((body) => ({ method: 'PATCH', path: `/v1/integrations/${ids.integration}`, body })),
  'POST /v1/integrations/{id}/secret': fc.constant({
    method: 'POST',
    path: `/v1/integrations/{integration}/secret`,
  }),
  'DELETE /v1/integrations/{id}': fc.constant({
    method: 'DELETE',
    path: '/v1/integrations/{integration}',
  }),
}

test('every write route of the table has a generator of concurrent requests', () => {
  const writes = API_ROUTES.filter((route) => route.method !== 'GET').map(
    (route) => `${route.method} ${route.path}`,
  )
  expect(Object.keys(WRITES).sort()).toEqual(writes.sort())
})

// Any write, sometimes with one of its fields given twice in the text.
const anyWrite = fc
  .tuple(
    fc.constantFrom(...Object.values(WRITES)).chain((write) => write),
    fc.boolean(),
  )
  .map(([write, repeat]): Write => {
    const path = write.path.replace('{integration}', ids.integration)
    if (!repeat || typeof write.body !== 'object' || write.body === null) return { ...write, path }
    const [field, value] = Object.entries(write.body)[0] ?? ['x', 1]
    return {
      ...write,
      path,
      raw: withRepeatedKey(write.body as Record<string, unknown>, field, value),
    }
  })

const send = (write: Write) =>
  h.send(write.method, write.path, {
    key: admin,
    ...(write.raw === undefined
      ? { body: write.body }
      : { rawBody: write.raw, headers: { 'content-type': 'application/json' } }),
  })

test('property: any two writes at once are answered 2xx or 4xx, never 5xx (503 aside)', async () => {
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(anyWrite, anyWrite, async (first, second) => {
      const answers = await Promise.all([send(first), send(second)])
      for (const [write, answer] of [
        [first, answers[0]],
        [second, answers[1]],
      ] as const) {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        const ok = answer.status < 500 || answer.status === 503
        expect({ write, status: answer.status, ok }).toMatchObject({ write, ok: true })
        if (write.raw !== undefined)
          expect({ write, status: answer.status }).toEqual({ write, status: 422 })
      }
    }),
    { numRuns: 250 },
  )
  // Guards the generators: both successes and refusals must occur for the property to bite.
  expect([...statuses.keys()].some((status) => status < 300)).toBe(true)
  expect([...statuses.keys()].some((status) => status === 422)).toBe(true)
  await h.drain()
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
}, 120_000)
