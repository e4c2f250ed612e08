import { beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { futureTime, growingName, lookalikeName, withRepeatedKey } from '../support/edge-inputs.ts'
import { CONTRACT_FIELDS, harnessPerFile } from '../support/harness.ts'
import { sendEach } from '../support/sendable.ts'

const h = harnessPerFile()
let key: string
beforeAll(async () => {
  key = (await h.createKey({ workspace: 'fuzz', rateLimitPerMinute: 1_000_000 })).key
})

// Strings that probe every rule: any UTF-16 unit (lone surrogates included), whole code points,
// plausible values, values around the limits, and huge ones.
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.constantFrom(
    'acme/shop',
    'a/b/c',
    'production',
    'a94a8fe5ccb1',
    '2026-01-01T00:00:00Z',
    './x/',
  ),
  fc.integer({ min: 250, max: 260 }).map((n) => '😀'.repeat(n)),
  fc.integer({ min: 65, max: 75 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 60_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  lookalikeName,
  growingName,
  futureTime,
)
const anyValue = fc.oneof(text, fc.constant(null), fc.integer(), fc.boolean(), fc.jsonValue())
const validShaped = fc.record({
  repositoryFullName: fc.constantFrom('acme/shop', 'group/sub/repo', 'o/😀'),
  environment: fc.oneof(fc.constantFrom('production', 'Production', ' staging '), text),
  app: fc.oneof(fc.constantFrom('api', 'API', 'web'), text),
  version: fc.oneof(fc.constant('1.0.0'), text),
  commitHash: fc.oneof(
    fc.constantFrom('abcdef1', 'A94A8FE5CCB19BA61C4C0873D391E987982FBBD3'),
    text,
  ),
})

let serial = 0
// Every version gets a unique suffix so each accepted body is a distinct deployment and the
// count of rows must equal the count of 202s.
function withUniqueVersion(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body
  const record = body as Record<string, unknown>
  if (typeof record.version === 'string') record.version = `${record.version}~${serial++}`
  return body
}

const body = fc.oneof(
  validShaped.map(withUniqueVersion),
  fc
    .tuple(
      validShaped,
      fc.dictionary(fc.constantFrom(...CONTRACT_FIELDS), anyValue, { maxKeys: 4 }),
    )
    .map(([base, overrides]) => withUniqueVersion({ ...base, ...overrides })),
  fc
    .dictionary(fc.oneof(fc.constantFrom(...CONTRACT_FIELDS), fc.string()), anyValue)
    .map(withUniqueVersion),
  fc.jsonValue(),
)

// A valid body with one of its fields given twice: refused, whichever value would have won.
const repeatedKey = fc
  .tuple(
    validShaped,
    fc.constantFrom('repositoryFullName', 'environment', 'app', 'version', 'commitHash'),
    anyValue,
  )
  .map(([base, field, value]) => {
    const payload = withRepeatedKey(
      withUniqueVersion(base) as Record<string, unknown>,
      field,
      value,
    )
    repeatedKeyPayloads.add(payload)
    return payload
  })
const repeatedKeyPayloads = new Set<string>()

const request = fc.record({
  payload: fc.oneof(
    { weight: 8, arbitrary: body.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: repeatedKey },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  ),
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=utf-8', '') },
  ),
  idempotencyKey: fc.option(fc.string({ unit: 'binary-ascii', maxLength: 20 }), { freq: 4 }),
})

test('no body a client can send produces anything but 202, 413 or 422, and every 202 is recorded', async () => {
  const accepted: string[] = []
  let sent = 0
  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 25 }), async (requests) => {
      const answered = await sendEach(
        requests,
        async ({ payload, contentType, idempotencyKey }) => {
          const headers: Record<string, string> = {}
          if (contentType) headers['content-type'] = contentType
          if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey
          return { response: await h.post(undefined, { key, headers, rawBody: payload }), payload }
        },
      )
      sent += answered.length
      for (const { response, payload } of answered) {
        expect([202, 413, 422]).toContain(response.status)
        if (repeatedKeyPayloads.has(payload)) expect(response.status).not.toBe(202)
        if (response.status === 202) {
          accepted.push(JSON.parse(payload).version)
          expect(await response.text()).toBe('{"status":202}')
        } else {
          expect(response.headers.get('content-type')).toBe('application/problem+json')
          const problem = await response.json()
          expect(problem.status).toBe(response.status)
        }
      }
    }),
    { numRuns: 500 },
  )
  await h.drain()
  const rows = await h.sql<{ version: string }[]>`select version from deployments`
  expect(sent).toBeGreaterThan(2_000)
  // Guards the generator, not the server: enough bodies must be valid for the property to bite.
  expect(accepted.length).toBeGreaterThan(30)
  expect(rows.length).toBe(accepted.length)
  expect(new Set(rows.map((row) => row.version))).toEqual(
    new Set(accepted.map((version) => version.trim())),
  )
  // Every one recorded at its first attempt: the inbox is empty and nothing moved to retries.
  const [{ waiting } = { waiting: -1 }] =
    await h.sql`select count(*)::int as waiting from deployment_inbox`
  expect(waiting).toBe(0)
  expect((await h.worker.metrics.retried.get()).values[0]?.value ?? 0).toBe(0)
  // No stored name hides a code point, and nothing was reported as deployed in the future.
  const names = await h.sql<{ name: string }[]>`
    select name from applications union all select name from environments
    union all select full_name from repositories`
  const hidden = /[\p{Default_Ignorable_Code_Point}\u2028\u2029]/u
  expect(names.filter(({ name }) => hidden.test(name) || name !== name.normalize('NFC'))).toEqual(
    [],
  )
  const [ahead] = await h.sql<{ count: number }[]>`
    select count(*)::int as count from deployments where deployed_at > received_at + interval '5 minutes'`
  expect(ahead?.count).toBe(0)
}, 120_000)
