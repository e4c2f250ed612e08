import { beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import fc from 'fast-check'
import { futureTime, lookalikeName } from '../support/edge-inputs.ts'
import { harnessPerFile } from '../support/harness.ts'

// The incident bodies a client can send, valid-shaped or hostile, to POST /v1/incidents and
// PATCH /v1/incidents/{id}: every answer is a 2xx or a 4xx problem, every 201 is stored, and
// nothing reaches the unexpected-error log.

const h = harnessPerFile()
let key: string
let causes: string[]
let opened: string[]
beforeAll(async () => {
  key = (
    await issueApiKey(h.sql, {
      workspace: 'acme',
      name: 'fuzz',
      scopes: ['incidents:write', 'read'],
      rateLimitPerMinute: 1_000_000,
    })
  ).key
  causes = [
    await h.deploy(validDeployment({ deployedAt: '2026-05-04T10:00:00Z' })),
    await h.deploy(validDeployment({ environment: 'staging', app: 'web' })),
  ]
  expect(await h.drain()).toBe(2)
  const first = await h.send('POST', '/v1/incidents', {
    key,
    body: { environment: 'production', title: 'seed' },
  })
  opened = [(await first.json()).id]
})

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 210 }),
  fc.constantFrom('production', 'Staging', 'checkout', 'web', '', ' ', '2026-05-04T11:00:00Z'),
  fc.constantFrom('never-deployed', 'Checkout'),
  fc.integer({ min: 195, max: 205 }).map((n) => '😀'.repeat(n)),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  lookalikeName,
  futureTime,
)
const anyValue = fc.oneof(text, fc.constant(null), fc.integer(), fc.boolean(), fc.jsonValue())
const time = fc.oneof(
  fc.constantFrom('2026-05-04T09:00:00Z', '2026-05-04T12:00:00+02:00', '0001-01-01T00:00:00Z'),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  text,
)
const cause = fc.oneof(
  fc.constantFrom(...[0, 1].map((index) => () => causes[index] as string)).map((get) => get()),
  fc.uuid(),
  text,
)
const FIELDS = ['environment', 'app', 'title', 'startedAt', 'resolvedAt', 'causeDeploymentId']
const shaped = fc.record(
  {
    environment: fc.oneof(fc.constantFrom('production', 'PRODUCTION', 'staging'), text),
    app: fc.oneof(fc.constantFrom('checkout', 'web'), text),
    title: fc.oneof(fc.constant('Errors'), text),
    startedAt: time,
    resolvedAt: fc.oneof(time, fc.constant(null)),
    causeDeploymentId: fc.oneof(cause, fc.constant(null)),
  },
  { requiredKeys: ['environment', 'title'] },
)
// Bodies that should be stored, so both outcomes are exercised: an open one, a patch.
const valid = fc.oneof(
  fc.record(
    {
      environment: fc.constantFrom('production', 'Production'),
      app: fc.constantFrom('checkout', 'CHECKOUT'),
      title: fc.constantFrom('Errors', ' 😀 '),
      startedAt: fc.constant('2026-05-04T09:00:00Z'),
      resolvedAt: fc.constantFrom('2026-05-04T12:00:00Z', null),
      causeDeploymentId: fc
        .constantFrom(0, null)
        .map((index) => (index === null ? null : causes[index])),
    },
    { requiredKeys: ['environment', 'title'] },
  ),
  fc.record(
    {
      title: fc.constantFrom('Renamed', 'x'.repeat(200)),
      resolvedAt: fc.constantFrom('2026-05-04T12:00:00Z', null),
      causeDeploymentId: fc.constant(null),
    },
    { requiredKeys: [] },
  ),
)
const body = fc.oneof(
  { weight: 3, arbitrary: valid },
  shaped,
  fc
    .tuple(shaped, fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 3 }))
    .map(([base, overrides]) => ({ ...base, ...overrides })),
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string()), anyValue),
  fc.jsonValue(),
)
const request = fc.record({
  method: fc.constantFrom('POST', 'PATCH'),
  target: fc.oneof(
    { weight: 6, arbitrary: fc.constant('opened') },
    { weight: 1, arbitrary: fc.uuid() },
  ),
  payload: fc.oneof(
    { weight: 8, arbitrary: body.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }) },
  ),
})

test('no incident body a client can send gets anything but a 2xx or a 4xx problem, and every 201 is stored', async () => {
  let created = 0
  let changed = 0
  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 10 }), async (requests) => {
      for (const { method, target, payload } of requests) {
        const id = target === 'opened' ? (opened.at(-1) as string) : target
        const path = method === 'POST' ? '/v1/incidents' : `/v1/incidents/${id}`
        const response = await h.send(method, path, {
          key,
          headers: { 'content-type': 'application/json' },
          rawBody: payload,
        })
        const answer = await response.json()
        if (response.status === 201) {
          created++
          opened.push(answer.id)
          expect(response.headers.get('location')).toBe(`/v1/incidents/${answer.id}`)
        } else if (response.status === 200) {
          changed++
          expect(answer.id).toBe(id)
        } else {
          // The request rides along so a failure names the body that caused it.
          expect({ path, payload, refused: [404, 413, 422].includes(response.status) }).toEqual({
            path,
            payload,
            refused: true,
          })
          expect(response.headers.get('content-type')).toBe('application/problem+json')
          expect(answer.status).toBe(response.status)
        }
      }
    }),
    { numRuns: 150 },
  )
  // Guards the generator: enough bodies must be valid for the property to bite.
  expect(created).toBeGreaterThan(20)
  expect(changed).toBeGreaterThan(20)
  const [row] = await h.sql<{ count: number }[]>`select count(*)::int as count from incidents`
  expect(row?.count).toBe(created + 1)
  // Every stored incident names an application the workspace has, and no time in the future.
  const astray = await h.sql`
    select id, app, started_at, resolved_at from incidents i
     where (app is not null and not exists (
              select 1 from applications a where a.workspace_id = i.workspace_id and a.name_key = i.app_key))
        or started_at > updated_at + interval '5 minutes'
        or resolved_at > updated_at + interval '5 minutes'`
  expect([...astray]).toEqual([])
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
}, 120_000)
