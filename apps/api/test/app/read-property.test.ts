import { beforeAll, expect, test } from 'bun:test'
import { encodeCommitCursor, encodeCursor } from '@shiplog/schema'
import { validDeployment } from '@shiplog/schema/testing'
import fc from 'fast-check'
import { harnessPerFile } from '../support/harness.ts'
import { sendEach } from '../support/sendable.ts'

// Every GET endpoint and every parameter, read from the served OpenAPI document (itself checked
// against the routes the app serves), so an endpoint or parameter added later is fuzzed too.

interface Operation {
  path: string
  parameters: { name: string; in: 'query' | 'path'; schema: { type?: string } }[]
}

const h = harnessPerFile({ READ_CONCURRENCY_PER_KEY: '1000' })
let key: string
let operations: Operation[]
beforeAll(async () => {
  // Admin too: GET /v1/audit needs it.
  key = (
    await h.createKey({
      workspace: 'read-fuzz',
      rateLimitPerMinute: 10_000_000,
      scopes: ['read', 'deployments:write', 'admin'],
    })
  ).key
  for (const [app, environment] of [
    ['api', 'production'],
    ['web', 'Staging'],
  ] as const) {
    const response = await h.post(validDeployment({ app, environment }), { key })
    expect(response.status).toBe(202)
  }
  await h.drain()
  await h.post(validDeployment({ app: 'queued-one' }), { key })
  const document = await (await h.get('/openapi.json', { key: null })).json()
  operations = Object.entries(document.paths as Record<string, { get?: Operation }>)
    .filter(([path, methods]) => path.startsWith('/v1/') && methods.get)
    .map(([path, methods]) => ({ path, parameters: methods.get?.parameters ?? [] }))
})

const id = '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4'
// Values that probe every rule: any UTF-16 unit, whole code points, control characters, near-valid
// dates, numbers, forged cursors, and the plausible values each parameter takes.
const plausible = fc.constantFrom(
  'production',
  'PRODUCTION',
  'api',
  'acme/shop',
  '1.2.3',
  'a94a8fe5',
  'day',
  'week',
  'recorded',
  'queued',
  'failed',
  'deployment.voided',
  'key.created',
  'someone@acme.test',
  'true',
  'false',
  'change',
  'shiplog_AbCdEfGh',
  '10',
  '2026-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999Z',
  '"2000-01-01T00:00:00Z"',
  '2024-02-30T00:00:00Z',
  '+002024-01-01T00:00:00Z',
  `2024-01-01T00:00:00.${'9'.repeat(150)}+14:00`,
  new Date(0).toString(),
  id,
  `urn:uuid:${id}`,
  encodeCursor({ deployedAtMicros: 1_700_000_000_000_000n, id }),
  encodeCommitCursor({ deployedAtMicros: 1_700_000_000_000_000n, id, sha: 'a'.repeat(40) }),
  Buffer.from(`1700000000000000000.${id}.${'b'.repeat(64)}`).toString('base64url'),
  Buffer.from(`999999999999999999.${id}`).toString('base64url'),
  Buffer.from(`-9999999999999999999.${id}`).toString('base64url'),
)
const value = fc.oneof(
  { weight: 4, arbitrary: plausible },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u0000', '%', '%00', '%ED%A0%80') },
)
// Mostly percent-encoded, sometimes raw, so malformed escapes reach the server too.
const encoded = fc
  .tuple(value, fc.boolean())
  .map(([text, raw]) => (raw ? text.replace(/[#?&=/\s]/g, '') : encodeURIComponent(text)))

const request = fc
  .record({
    operation: fc.nat(),
    values: fc.array(fc.tuple(fc.nat(), encoded), { maxLength: 6 }),
    unknown: fc.option(fc.tuple(fc.string({ maxLength: 10 }), encoded), { freq: 5 }),
    pathId: encoded,
  })
  .map(({ operation: index, values, unknown, pathId }) => {
    const operation = operations[index % operations.length] as Operation
    const path = operation.path.replace(/\{\w+\}/g, () => pathId || 'x')
    const query = operation.parameters.filter((parameter) => parameter.in === 'query')
    // Picking a parameter more than once repeats it, as `?a=1&a=2` does.
    const pairs = values.flatMap(([pick, text]) => {
      const parameter = query[pick % Math.max(query.length, 1)]
      return parameter ? [`${parameter.name}=${text}`] : []
    })
    if (unknown) pairs.push(`${encodeURIComponent(unknown[0])}=${unknown[1]}`)
    return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path
  })

test('no query, path or parameter a client can send gets anything but 200 or a 4xx problem, and nothing is logged as unexpected', async () => {
  const statuses = new Map<number, number>()
  let sent = 0
  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 10 }), async (paths) => {
      const answered = await sendEach(paths, async (path) => ({
        path,
        response: await h.get(path, { key }),
      }))
      sent += answered.length
      for (const { path, response } of answered) {
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        const body = await response.text()
        if (response.status !== 200) {
          // The path rides along so a failure names the request that caused it.
          expect({ path, status: response.status, body }).toEqual({
            path,
            status: [400, 404, 422, 429].includes(response.status) ? response.status : -1,
            body,
          })
          expect(response.headers.get('content-type')).toBe('application/problem+json')
          expect(JSON.parse(body).status).toBe(response.status)
        } else {
          expect(() => JSON.parse(body)).not.toThrow()
        }
      }
    }),
    // Every endpoint shares the runs: more endpoints (incidents) need more runs for each to bite.
    { numRuns: 700 },
  )
  expect(sent).toBeGreaterThan(3_500)
  // Guards the generator, not the server: both answers must be common for the property to bite.
  expect(statuses.get(200) ?? 0).toBeGreaterThan(100)
  expect(statuses.get(422) ?? 0).toBeGreaterThan(100)
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
  expect(h.logs.filter((line) => String(line.error ?? '').includes('    at '))).toEqual([])
}, 180_000)
