/**
 * Validation of `POST /v1/deployments`, end to end through HTTP: what a client sees for every
 * rule of decisions.md §2 and §3, and what ends up recorded once the worker has run.
 *
 * Bookkeeping: every accepted request drains the queue right away and expects exactly its own job,
 * so a rejected request that leaked a job would show up as an extra one. The last section checks
 * the totals (jobs, rows, listing) against the number of 202s sent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CONTRACT_FIELDS, type Harness, startHarness, validDeployment } from './harness.ts'

let h: Harness
beforeAll(async () => {
  // Hundreds of requests below; the rate limit is not what this file tests.
  h = await startHarness({ RATE_LIMIT_PER_MINUTE: '1000000' })
})
afterAll(() => h?.close())

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const FIELDS = CONTRACT_FIELDS
type Field = (typeof FIELDS)[number]
const REQUIRED: readonly Field[] = [
  'repositoryFullName',
  'environment',
  'app',
  'version',
  'commitHash',
]
const OPTIONAL: readonly Field[] = ['description', 'author', 'deployedAt', 'monorepoPath']

/** A valid value of every field, for tests that put one field aside. */
const SAMPLE: Record<Field, string> = {
  repositoryFullName: 'acme/shop',
  environment: 'production',
  app: 'checkout',
  version: '1.2.3',
  commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
  description: 'Hotfix for checkout timeout',
  author: 'octocat',
  deployedAt: '2024-05-01T12:00:00Z',
  monorepoPath: 'apps/checkout',
}

// The literal GitHub Actions placeholder a misconfigured workflow sends.
const UNEXPANDED_SHA = ['$', '{{ github.sha }}'].join('')

let sequence = 0
/**
 * A valid body with a version no other request uses, so no two accepted deployments are the same
 * delivery (which the worker would record once).
 */
function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence++
  return validDeployment({ version: `validation-${sequence}`, ...overrides })
}

/** A unique token for names that must not collide with an earlier test's. */
function unique(prefix: string): string {
  sequence++
  return `${prefix}-${sequence}`
}

/** A deployment row as recorded, with `deployedAt` at full (microsecond) precision in UTC. */
interface Stored {
  id: string
  repositoryFullName: string
  environment: string
  app: string
  version: string
  commitHash: string
  description: string | null
  author: string | null
  deployedAt: string
  monorepoPath: string | null
}

let accepted = 0
const seenIds = new Set<string>()

/** Rows recorded since the last call. */
async function newRows(): Promise<Stored[]> {
  const rows = await h.sql<Stored[]>`
    select d.id::text as id, r.full_name as "repositoryFullName", e.name as environment,
           a.name as app, d.version, d.commit_hash as "commitHash", d.description, d.author,
           to_char(d.deployed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "deployedAt",
           d.monorepo_path as "monorepoPath"
      from deployments d
      join applications a on a.id = d.application_id
      join repositories r on r.id = a.repository_id
      join environments e on e.id = d.environment_id`
  const fresh = rows.filter((row) => !seenIds.has(row.id))
  for (const row of fresh) seenIds.add(row.id)
  return fresh.map((row) => ({ ...row }))
}

/** Asserts the exact success answer of the contract. */
async function expectAccepted(response: Response): Promise<void> {
  const text = await response.text()
  // One assertion on both, so a failure shows the problem body that came back instead.
  expect({ status: response.status, body: text }).toEqual({ status: 202, body: '{"status":202}' })
  accepted++
}

/** Sends a body that must be accepted, runs the worker, and returns the one row it recorded. */
async function acceptAndRecord(
  payload: unknown,
  options: Parameters<Harness['post']>[1] = {},
): Promise<Stored> {
  await expectAccepted(await h.post(payload, options))
  expect(await h.drain()).toBe(1)
  const rows = await newRows()
  expect(rows).toHaveLength(1)
  return rows[0] as Stored
}

interface FieldError {
  field: string
  message: string
}
interface ProblemBody {
  type: string
  title: string
  status: number
  detail: string
  errors?: FieldError[]
}

let rejected = 0
const STACK_TRACE = /^\s*at\s|\.(?:ts|js|mjs|cjs)\b|node_modules|file:\/\/|\/work\//m

/** Asserts an RFC 9457 problem answer with `status` and returns its body. */
async function expectProblem(response: Response, status: number): Promise<ProblemBody> {
  const text = await response.text()
  expect({ status: response.status, body: text }).toEqual({ status, body: expect.any(String) })
  expect(response.headers.get('content-type')?.split(';')[0]?.trim()).toBe(
    'application/problem+json',
  )
  expect(text).not.toMatch(STACK_TRACE)
  const problem = JSON.parse(text) as ProblemBody
  expect(problem.status).toBe(status)
  for (const member of ['type', 'title', 'detail'] as const) {
    expect(typeof problem[member]).toBe('string')
    expect(problem[member].length).toBeGreaterThan(0)
  }
  if (status === 422) {
    expect(Array.isArray(problem.errors)).toBe(true)
    expect(problem.errors?.length).toBeGreaterThan(0)
    for (const error of problem.errors ?? []) {
      expect(typeof error.field).toBe('string')
      expect(typeof error.message).toBe('string')
      expect(error.message.length).toBeGreaterThan(0)
    }
  } else {
    expect(problem.errors).toBeUndefined()
  }
  rejected++
  return problem
}

/** Asserts a 422 whose only error is on `field`, and returns that error's message. */
async function expectFieldError(
  response: Response,
  field: string,
  message?: RegExp | string,
): Promise<string> {
  const problem = await expectProblem(response, 422)
  expect(problem.errors?.map((e) => e.field)).toEqual([field])
  const text = problem.errors?.[0]?.message ?? ''
  if (typeof message === 'string') expect(text).toContain(message)
  else if (message) expect(text).toMatch(message)
  return text
}

/** `POST` of a raw body; `contentType: null` sends none (only a Uint8Array body carries none). */
function postRaw(raw: BodyInit | undefined, contentType: string | null = 'application/json') {
  const headers: Record<string, string> =
    contentType === null ? {} : { 'content-type': contentType }
  return h.post(undefined, { rawBody: raw, headers })
}

const utf8 = new TextEncoder()
const bytesOf = (text: string) => utf8.encode(text).byteLength
const codePoints = (text: string) => [...text].length

/** `count` code points of `unit` (one code point or a sequence dividing `count`). */
function repeatTo(unit: string, count: number): string {
  const n = codePoints(unit)
  if (count % n !== 0) throw new Error(`${count} is not a multiple of ${n}`)
  return unit.repeat(count / n)
}

// ---------------------------------------------------------------------------------------------
// 1. Length limits, in Unicode code points
// ---------------------------------------------------------------------------------------------

const LIMITS: [Field, number][] = [
  ['repositoryFullName', 255],
  ['environment', 255],
  ['app', 255],
  ['description', 255],
  ['author', 255],
  ['monorepoPath', 255],
  ['version', 70],
  ['commitHash', 70],
]

/** A valid value of `field` that is exactly `count` code points long, made of `unit`. */
function valueOfLength(field: Field, unit: string, count: number): string {
  // The repository needs an owner segment; the rest is the name.
  if (field === 'repositoryFullName') return `o/${repeatTo(unit, count - 2)}`
  return repeatTo(unit, count)
}

const UNITS: [string, string][] = [
  ['ASCII', 'x'],
  ['3-byte CJK', '中'],
  ['astral emoji (2 UTF-16 units)', '😀'],
  ['astral musical symbol', '𝄞'],
]

describe('length limits are counted in Unicode code points', () => {
  const cases = LIMITS.flatMap(([field, limit]) =>
    // A commit hash is hexadecimal, so only ASCII can reach its limit.
    (field === 'commitHash' ? [['hexadecimal', 'a'] as [string, string]] : UNITS).map(
      ([kind, unit]) => ({ field, limit, kind, unit }),
    ),
  )

  test.each(cases)(
    '$field of exactly $limit $kind characters is accepted and stored intact',
    async ({ field, limit, unit }) => {
      const value = valueOfLength(field, unit, limit)
      expect(codePoints(value)).toBe(limit)
      const row = await acceptAndRecord(body({ [field]: value }))
      expect(row[field]).toBe(value)
    },
  )

  test.each(cases)(
    '$field of $limit + 1 $kind characters is rejected naming the limit',
    async ({ field, limit, unit }) => {
      const value = valueOfLength(field, unit, limit + 1)
      expect(codePoints(value)).toBe(limit + 1)
      await expectFieldError(await h.post(body({ [field]: value })), field, String(limit))
    },
  )

  test.each(LIMITS)(
    '%s at its limit of %d is measured after trimming surrounding spaces',
    async (field, limit) => {
      const value = valueOfLength(field, field === 'commitHash' ? 'b' : 'y', limit)
      const row = await acceptAndRecord(body({ [field]: `   ${value}   ` }))
      expect(row[field]).toBe(value)
    },
  )

  test('app of 255 astral characters (510 UTF-16 units, 1020 bytes) is accepted and stored intact', async () => {
    const value = '😀'.repeat(255)
    expect(value.length).toBe(510)
    expect(bytesOf(value)).toBe(1020)
    const row = await acceptAndRecord(body({ app: value, environment: unique('emoji-env') }))
    expect(row.app).toBe(value)
  })

  test('app of 256 astral characters is rejected', async () => {
    const message = await expectFieldError(
      await h.post(body({ app: '😀'.repeat(256) })),
      'app',
      '255',
    )
    expect(message).toContain('256')
  })

  test('family emoji count as their 5 code points each: 51 (255) accepted, 52 (260) rejected', async () => {
    const family = '👨\u200d👩\u200d👧'
    expect(codePoints(family)).toBe(5)
    const row = await acceptAndRecord(body({ description: family.repeat(51) }))
    expect(row.description).toBe(family.repeat(51))
    await expectFieldError(
      await h.post(body({ description: family.repeat(52) })),
      'description',
      '255',
    )
  })

  test('a mix of ASCII and astral characters totalling 70 is a valid version', async () => {
    const value = `${'a😀'.repeat(34)}𝄞b`
    expect(codePoints(value)).toBe(70)
    const row = await acceptAndRecord(body({ version: value }))
    expect(row.version).toBe(value)
    await expectFieldError(await h.post(body({ version: `${value}c` })), 'version', '70')
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Format rules
// ---------------------------------------------------------------------------------------------

describe('commitHash', () => {
  test.each([
    ['7 hexadecimal characters', 'abcdef1'],
    ['a full 40-character SHA-1', 'c3499c2729730a7f807efb8676a92dcb6f8a3f8f'],
    ['a 64-character SHA-256', 'e'.repeat(64)],
  ])('%s is accepted', async (_, hash) => {
    const row = await acceptAndRecord(body({ commitHash: hash }))
    expect(row.commitHash).toBe(hash)
  })

  test('upper case is accepted and stored lower-case', async () => {
    const row = await acceptAndRecord(
      body({ commitHash: 'A94A8FE5CCB19BA61C4C0873D391E987982FBBD3' }),
    )
    expect(row.commitHash).toBe('a94a8fe5ccb19ba61c4c0873d391e987982fbbd3')
  })

  test.each([
    ['6 characters', 'abcdef'],
    ['a non-hex letter', 'g94a8fe5ccb19ba61c4c0873d391e987982fbbd3'],
    ['an unexpanded GitHub Actions template', UNEXPANDED_SHA],
    ['an inner space', 'a94a8fe 5ccb19ba'],
    ['a 0x prefix', '0xa94a8fe5cc'],
    ['a branch name', 'main'],
  ])('%s is rejected', async (_, hash) => {
    await expectFieldError(await h.post(body({ commitHash: hash })), 'commitHash')
  })
})

describe('repositoryFullName', () => {
  test.each([
    ['owner/repo', 'owner-validation/repo'],
    ['nested groups', 'group-validation/sub/repo'],
  ])('%s is accepted and stored as sent', async (_, name) => {
    const row = await acceptAndRecord(body({ repositoryFullName: name }))
    expect(row.repositoryFullName).toBe(name)
  })

  test.each([
    ['no slash', 'owner'],
    ['an empty name', 'owner/'],
    ['an empty owner', '/repo'],
    ['a space before the slash', 'owner /repo'],
    ['a space inside the name', 'owner/my repo'],
    ['an empty middle segment', 'owner//repo'],
    ['only a slash', '/'],
  ])('%s is rejected', async (_, name) => {
    await expectFieldError(await h.post(body({ repositoryFullName: name })), 'repositoryFullName')
  })
})

describe('deployedAt', () => {
  test.each([
    ['a Z time zone', '2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000000Z'],
    ['a +02:00 offset', '2024-05-01T14:00:00+02:00', '2024-05-01T12:00:00.000000Z'],
    ['a -05:30 offset', '2024-05-01T06:30:00-05:30', '2024-05-01T12:00:00.000000Z'],
    ['fractional seconds', '2024-05-01T12:00:00.123456Z', '2024-05-01T12:00:00.123456Z'],
    ['a leap day', '2024-02-29T08:00:00Z', '2024-02-29T08:00:00.000000Z'],
    ['backfilled history from 1999', '1999-12-31T23:59:59Z', '1999-12-31T23:59:59.000000Z'],
    [
      'lower-case t and z (RFC 3339 allows them)',
      '2024-05-01t12:00:00z',
      '2024-05-01T12:00:00.000000Z',
    ],
    ['the first year, 0001', '0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000000Z'],
  ])('%s is accepted and stored as that instant', async (_, sent, instant) => {
    const row = await acceptAndRecord(body({ deployedAt: sent }))
    expect(row.deployedAt).toBe(instant)
  })

  test('0001-01-01T00:00:00+14:00 (1 BC in UTC) is rejected: the earliest instant is year 1 in UTC', async () => {
    const response = await h.post(body({ deployedAt: '0001-01-01T00:00:00+14:00' }))
    expect(response.status).toBe(422)
    const problem = await response.json()
    expect(problem.errors).toEqual([
      { field: 'deployedAt', message: expect.stringContaining('from 0001-01-01T00:00:00Z') },
    ])
  })

  test.each([
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0099-06-01T00:00:00Z', '0099-06-01T00:00:00.000Z'],
    ['0001-01-01T14:00:00+14:00', '0001-01-01T00:00:00.000Z'],
    ['2026-06-01T10:00:00.123456Z', '2026-06-01T10:00:00.123456Z'],
  ])(
    'backfilled %s reads back through GET /v1/deployments as the same instant',
    async (sent, listed) => {
      const app = unique('backfill')
      await acceptAndRecord(body({ app, deployedAt: sent }))
      const response = await h.get(`/v1/deployments?app=${encodeURIComponent(app)}`)
      const text = await response.text()
      expect({ status: response.status, body: text }).toEqual({
        status: 200,
        body: expect.any(String),
      })
      const page = JSON.parse(text) as { data: { deployedAt: string }[] }
      expect(page.data.map((d) => d.deployedAt)).toEqual([listed])
    },
  )

  test('4 minutes in the future (clock skew) is accepted', async () => {
    const ahead = new Date(Date.now() + 4 * 60_000).toISOString()
    const row = await acceptAndRecord(body({ deployedAt: ahead }))
    expect(row.deployedAt).toBe(ahead.replace('Z', '000Z'))
  })

  test('omitted, it defaults to the time the request was received', async () => {
    const before = Date.now()
    const response = await h.post(body())
    const after = Date.now()
    await expectAccepted(response)
    expect(await h.drain()).toBe(1)
    const [row] = await newRows()
    const at = Date.parse(row?.deployedAt ?? '')
    expect(at).toBeGreaterThanOrEqual(before)
    expect(at).toBeLessThanOrEqual(after)
  })

  test('10 minutes in the future is rejected', async () => {
    const ahead = new Date(Date.now() + 10 * 60_000).toISOString()
    await expectFieldError(await h.post(body({ deployedAt: ahead })), 'deployedAt', /future/)
  })

  test.each([
    ['no time zone', '2024-05-01T12:00:00'],
    ['a date only', '2024-05-01'],
    ['February 30th', '2024-02-30T00:00:00Z'],
    ['February 29th of a non-leap year', '2023-02-29T00:00:00Z'],
    ['hour 24', '2024-05-01T24:00:00Z'],
    ['minute 60', '2024-05-01T12:60:00Z'],
    ['month 13', '2024-13-01T12:00:00Z'],
    ['year 0000', '0000-06-01T12:00:00Z'],
    ['a one-digit offset hour', '2024-05-01T12:00:00+2:00'],
    ['epoch seconds', '1714564800'],
    ['a word', 'yesterday'],
  ])('%s is rejected', async (_, value) => {
    await expectFieldError(await h.post(body({ deployedAt: value })), 'deployedAt')
  })
})

describe('monorepoPath', () => {
  test.each([
    ['a ./ prefix and trailing / are stripped', './apps/api/', 'apps/api'],
    ['a plain relative path is kept', 'services/billing', 'services/billing'],
    ['a segment that merely starts with dots is allowed', 'tools/..config', 'tools/..config'],
  ])('%s', async (_, sent, stored) => {
    const row = await acceptAndRecord(body({ monorepoPath: sent }))
    expect(row.monorepoPath).toBe(stored)
  })

  test.each([
    ['a leading ../', '../x'],
    ['a .. segment in the middle', 'a/../b'],
    ['a trailing .. segment', 'a/..'],
    ['.. alone', '..'],
    ['an absolute path', '/abs'],
  ])('%s is rejected', async (_, path) => {
    await expectFieldError(await h.post(body({ monorepoPath: path })), 'monorepoPath')
  })
})

/** `value` with `char` put in its middle. */
const withInside = (value: string, char: string) => `${value.slice(0, 4)}${char}${value.slice(4)}`

describe('control characters are rejected in every field', () => {
  const cases = FIELDS.flatMap((field) =>
    (
      [
        ['NUL (U+0000)', '\u0000'],
        ['a line feed', '\n'],
        ['DEL (U+007F)', '\u007f'],
      ] as const
    ).map(([name, char]) => ({ field, name, char })),
  )

  test.each(cases)('$name inside $field is rejected', async ({ field, char }) => {
    await expectFieldError(
      await h.post(body({ [field]: withInside(SAMPLE[field], char) })),
      field,
      /control/,
    )
  })

  test('no control character ever reached Postgres: nothing queued, nothing recorded', async () => {
    // A NUL would have made Postgres throw in the worker; a job that got that far would show here.
    expect(await h.drain()).toBe(0)
    expect(await h.deploymentCount()).toBe(accepted)
    const [row] = await h.sql<{ count: number }[]>`
      select count(*)::int as count from deployments
       where concat_ws(' ', version, commit_hash, description, author, monorepo_path) ~ '[\x01-\x1f\x7f]'`
    expect(row?.count).toBe(0)
  })
})

/** A raw JSON body (so escapes such as `\ud800` reach the server as written) for `field`. */
function rawJsonWith(field: Field, jsonStringLiteral: string): string {
  const rest = JSON.stringify(body()).slice(1, -1)
  const withoutField = rest
    .split(/,(?=")/)
    .filter((member) => !member.startsWith(`"${field}"`))
    .join(',')
  return `{${withoutField},"${field}":${jsonStringLiteral}}`
}

describe('Unicode', () => {
  test.each([
    ['a lone high surrogate', 'app', '"chk\\ud800out"'],
    ['a lone low surrogate', 'app', '"chk\\udc00out"'],
    ['a reversed pair', 'environment', '"prod\\ude00\\ud83d"'],
    ['a high surrogate at the end', 'description', '"broken \\ud83d"'],
    ['a lone surrogate', 'author', '"\\udfff"'],
    ['a lone surrogate', 'version', '"1.0\\ud800"'],
  ])('%s in %s (a JSON escape sent as raw text) is rejected', async (_, field, literal) => {
    const raw = rawJsonWith(field as Field, literal)
    await expectFieldError(await postRaw(raw), field, /surrogate|Unicode/i)
  })

  test('a valid surrogate pair written as JSON escapes is accepted as one character', async () => {
    const raw = rawJsonWith('description', '"ship it \\ud83d\\ude80"')
    const row = await acceptAndRecord(undefined, {
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    })
    expect(row.description).toBe('ship it 🚀')
  })

  test('a right-to-left mark (U+200F) and a zero-width joiner (U+200D) are stored intact', async () => {
    const app = unique('\u200fcheck\u200dout')
    const description = 'שלום\u200f world \u200d'
    const author = 'a\u200db'
    const row = await acceptAndRecord(body({ app, description, author }))
    expect(row.app).toBe(app)
    expect(row.description).toBe(description)
    expect(row.author).toBe(author)
  })
})

describe('whitespace and empty values', () => {
  const padded: Record<Field, [string, string]> = {
    repositoryFullName: ['  acme/padded-repo  ', 'acme/padded-repo'],
    environment: ['  padded-env  ', 'padded-env'],
    app: ['  padded-app  ', 'padded-app'],
    version: ['  9.9.9-padded  ', '9.9.9-padded'],
    commitHash: ['  ABCDEF0123  ', 'abcdef0123'],
    description: ['  a note  ', 'a note'],
    author: ['  octocat  ', 'octocat'],
    deployedAt: ['  2024-06-01T00:00:00Z  ', '2024-06-01T00:00:00.000000Z'],
    monorepoPath: ['  ./apps/padded/  ', 'apps/padded'],
  }

  test.each(FIELDS)('surrounding spaces of %s are trimmed before storing', async (field) => {
    const [sent, stored] = padded[field]
    const row = await acceptAndRecord(body({ [field]: sent }))
    expect(row[field]).toBe(stored)
  })

  test('a trimmed name matches the existing application and environment', async () => {
    const row = await acceptAndRecord(body({ app: ' checkout ', environment: ' production ' }))
    expect(row.app).toBe('checkout')
    expect(row.environment).toBe('production')
  })

  test.each(REQUIRED.flatMap((field) => [[field, ''] as const, [field, '   '] as const]))(
    'required %s given %j is rejected',
    async (field, value) => {
      await expectFieldError(await h.post(body({ [field]: value })), field, /empty|required/)
    },
  )

  test.each(REQUIRED)('required %s given null is rejected as missing', async (field) => {
    await expectFieldError(await h.post(body({ [field]: null })), field, /required/)
  })

  test.each(REQUIRED)('required %s left out is rejected as missing', async (field) => {
    const payload = body()
    delete payload[field]
    await expectFieldError(await h.post(payload), field, /required/)
  })

  test.each(['description', 'author', 'monorepoPath'] as const)(
    'optional %s given null, empty or blank is stored as absent',
    async (field) => {
      for (const value of [null, '', '   ']) {
        const row = await acceptAndRecord(body({ [field]: value }))
        expect(row[field]).toBeNull()
      }
    },
  )

  test('deployedAt given null means the time of the request', async () => {
    const before = Date.now()
    await expectAccepted(await h.post(body({ deployedAt: null })))
    const after = Date.now()
    expect(await h.drain()).toBe(1)
    const [row] = await newRows()
    const at = Date.parse(row?.deployedAt ?? '')
    expect(at).toBeGreaterThanOrEqual(before)
    expect(at).toBeLessThanOrEqual(after)
  })

  test('every optional field given null at once is accepted', async () => {
    const nulls = Object.fromEntries(OPTIONAL.map((field) => [field, null]))
    const row = await acceptAndRecord(body(nulls))
    expect(row.description).toBeNull()
    expect(row.author).toBeNull()
    expect(row.monorepoPath).toBeNull()
  })
})

describe('wrong JSON types', () => {
  const cases = FIELDS.flatMap((field) =>
    (
      [
        ['a number', 42],
        ['an object', { value: 'x' }],
        ['a boolean', true],
        ['an array', ['x']],
      ] as const
    ).map(([kind, value]) => ({ field, kind, value })),
  )

  test.each(cases)('$field given $kind is rejected with "must be a string"', async (c) => {
    await expectFieldError(await h.post(body({ [c.field]: c.value })), c.field, 'must be a string')
  })
})

// ---------------------------------------------------------------------------------------------
// 3. Unknown fields
// ---------------------------------------------------------------------------------------------

describe('unknown fields', () => {
  test.each([
    ['deployed_at', 'deployedAt'],
    ['commit_hash', 'commitHash'],
    ['repository_full_name', 'repositoryFullName'],
    ['Environment', 'environment'],
    ['monorepo-path', 'monorepoPath'],
    ['autor', 'author'],
  ])('%s is rejected, named, with a suggestion of %s', async (unknown, known) => {
    const message = await expectFieldError(await h.post(body({ [unknown]: 'x' })), unknown, known)
    expect(message).toMatch(/not a known field/)
  })

  test('a field nothing resembles is rejected by name', async () => {
    await expectFieldError(await h.post(body({ buildNumber: '42' })), 'buildNumber')
  })

  test('every unknown field is listed', async () => {
    const problem = await expectProblem(
      await h.post(body({ deployed_at: 'x', team: 'payments', extra: 1 })),
      422,
    )
    expect(new Set(problem.errors?.map((e) => e.field))).toEqual(
      new Set(['deployed_at', 'team', 'extra']),
    )
  })

  test('__proto__ sent as a key is an unknown field, not silently dropped', async () => {
    const raw = `{"__proto__":{"admin":true},${JSON.stringify(body()).slice(1)}`
    await expectFieldError(await postRaw(raw), '__proto__')
  })

  test('an unknown field alongside a valid deployment queues nothing', async () => {
    expect(await h.drain()).toBe(0)
  })
})

// ---------------------------------------------------------------------------------------------
// 4. Every failing field at once
// ---------------------------------------------------------------------------------------------

describe('every failing field is reported at once', () => {
  test('a body with 9 different problems gets one 422 listing all 9 fields', async () => {
    const problem = await expectProblem(
      await h.post({
        repositoryFullName: 'owner', // no slash
        environment: '   ', // blank
        app: 'a'.repeat(256), // too long
        version: 123, // not a string
        commitHash: UNEXPANDED_SHA, // template left unexpanded
        description: 'line\u0000break', // control character
        deployedAt: '2024-02-30T00:00:00Z', // no such day
        monorepoPath: '../x', // escapes the repository
        deployed_at: '2024-05-01T12:00:00Z', // unknown field
      }),
      422,
    )
    const fields = problem.errors?.map((e) => e.field) ?? []
    expect(new Set(fields)).toEqual(
      new Set([
        'repositoryFullName',
        'environment',
        'app',
        'version',
        'commitHash',
        'description',
        'deployedAt',
        'monorepoPath',
        'deployed_at',
      ]),
    )
    // At most one error per field.
    expect(fields).toHaveLength(new Set(fields).size)
  })

  test('an empty object lists every required field', async () => {
    const problem = await expectProblem(await h.post({}), 422)
    expect(new Set(problem.errors?.map((e) => e.field))).toEqual(new Set(REQUIRED))
  })
})

// ---------------------------------------------------------------------------------------------
// 5. Body shape and size
// ---------------------------------------------------------------------------------------------

const MAX_BODY = 64 * 1024

/** A JSON deployment body of exactly `bytes` bytes, padded in `description` with `pad`. */
function bodyOfBytes(bytes: number, pad = 'x'): string {
  const base = body({ description: '' })
  const empty = JSON.stringify(base)
  const missing = bytes - bytesOf(empty)
  const unit = bytesOf(pad)
  if (missing < 0 || missing % unit !== 0) throw new Error(`cannot pad to ${bytes} bytes`)
  const text = JSON.stringify({ ...base, description: pad.repeat(missing / unit) })
  expect(bytesOf(text)).toBe(bytes)
  return text
}

describe('body shape', () => {
  const validJson = () => JSON.stringify(body())

  test.each([
    ['malformed JSON', () => '{"app": "checkout",', 'application/json'],
    ['a JSON array', () => `[${validJson()}]`, 'application/json'],
    ['a JSON string', () => '"acme/shop"', 'application/json'],
    ['a JSON number', () => '202', 'application/json'],
    ['JSON null', () => 'null', 'application/json'],
    ['an empty body', () => '', 'application/json'],
    ['a JSON body sent as text/plain', validJson, 'text/plain'],
    ['a JSON body sent as a form', validJson, 'application/x-www-form-urlencoded'],
  ])('%s is rejected with an error on body', async (_, raw, contentType) => {
    await expectFieldError(await postRaw(raw(), contentType), 'body')
  })

  test('no body at all is rejected with an error on body', async () => {
    await expectFieldError(await postRaw(undefined), 'body')
  })

  test('a JSON body without a Content-Type is rejected with an error on body', async () => {
    const message = await expectFieldError(
      await postRaw(utf8.encode(validJson()), null),
      'body',
      /Content-Type/,
    )
    expect(message).toContain('application/json')
  })

  test.each([
    ['a 0xFF byte', [0xff]],
    ['a truncated 2-byte sequence', [0xc3]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
  ])('invalid UTF-8 (%s inside a string) is rejected with an error on body', async (_, bad) => {
    const [head, tail] = validJson().split('checkout')
    const bytes = new Uint8Array([
      ...utf8.encode(`${head}check`),
      ...bad,
      ...utf8.encode(`out${tail}`),
    ])
    await expectFieldError(await postRaw(bytes), 'body', /UTF-8/)
  })

  test('Content-Type with a charset parameter is accepted', async () => {
    await acceptAndRecord(undefined, {
      rawBody: validJson(),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
  })

  test('a body of 64 KiB + 1 byte is rejected with 413', async () => {
    const raw = bodyOfBytes(MAX_BODY + 1)
    const problem = await expectProblem(await postRaw(raw), 413)
    expect(problem.detail).toContain(String(MAX_BODY))
  })

  test('a body of 64 KiB + 1 byte declared in Content-Length is rejected with 413', async () => {
    const raw = bodyOfBytes(MAX_BODY + 1)
    const response = await h.post(undefined, {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'content-length': String(MAX_BODY + 1) },
    })
    await expectProblem(response, 413)
  })

  test('the 64 KiB limit counts bytes: 16,400 emoji (32,800 UTF-16 units) are too large', async () => {
    const raw = JSON.stringify(body({ description: '😀'.repeat(16_400) }))
    expect(raw.length).toBeLessThan(MAX_BODY)
    expect(bytesOf(raw)).toBeGreaterThan(MAX_BODY)
    await expectProblem(await postRaw(raw), 413)
  })

  test('a body of exactly 64 KiB is read: its overlong description gets 422, not 413', async () => {
    const response = await postRaw(bodyOfBytes(MAX_BODY))
    await expectFieldError(response, 'description', '255')
  })

  test('a body just under 64 KiB with an overlong field gets 422, not 413', async () => {
    const response = await postRaw(bodyOfBytes(MAX_BODY - 100))
    await expectFieldError(response, 'description', '255')
  })

  test('an oversized body with a wrong API key gets 401: authentication comes first', async () => {
    const response = await h.post(undefined, {
      key: 'shiplog_wrong',
      rawBody: bodyOfBytes(MAX_BODY + 1),
      headers: { 'content-type': 'application/json' },
    })
    await expectProblem(response, 401)
  })
})

// ---------------------------------------------------------------------------------------------
// 6. Problem body shape
// ---------------------------------------------------------------------------------------------

describe('problem details', () => {
  test('a 422 is application/problem+json with type, title, status, detail and errors', async () => {
    const response = await h.post(body({ commitHash: 'nope' }))
    expect(response.headers.get('content-type')).toStartWith('application/problem+json')
    const problem = await expectProblem(response, 422)
    expect(Object.keys(problem).sort()).toEqual(['detail', 'errors', 'status', 'title', 'type'])
    expect(problem.errors).toEqual([{ field: 'commitHash', message: expect.any(String) }])
  })

  test('a 413 is application/problem+json without errors', async () => {
    const problem = await expectProblem(await postRaw(bodyOfBytes(MAX_BODY + 1)), 413)
    expect(Object.keys(problem).sort()).toEqual(['detail', 'status', 'title', 'type'])
  })

  test('deeply nested JSON gets a 422 problem, never a 500 or a stack trace', async () => {
    const nested = `{"app":${'['.repeat(30_000)}${']'.repeat(30_000)}}`
    expect(bytesOf(nested)).toBeLessThan(MAX_BODY)
    const problem = await expectProblem(await postRaw(nested), 422)
    expect(problem.errors?.map((e) => e.field)).toContainEqual(
      expect.stringMatching(/^(body|app)$/),
    )
  })
})

// ---------------------------------------------------------------------------------------------
// 7. Nothing invalid is queued
// ---------------------------------------------------------------------------------------------

describe('nothing invalid is queued', () => {
  test('after all the rejected requests, the queue holds no job', async () => {
    expect(rejected).toBeGreaterThan(150)
    expect(await h.drain()).toBe(0)
  })

  test('valid and invalid requests sent together: only the valid ones become jobs', async () => {
    const valid = [body(), body({ app: unique('together') }), body({ author: 'mona' })]
    const invalid: unknown[] = [
      body({ commitHash: 'xyz' }),
      body({ app: '😀'.repeat(256) }),
      body({ deployed_at: '2024-05-01T12:00:00Z' }),
      body({ description: 'a\u0000b' }),
      body({ monorepoPath: '/abs' }),
      [body()],
      null,
    ]
    const responses = await Promise.all([...valid, ...invalid].map((payload) => h.post(payload)))
    for (const response of responses.slice(0, valid.length)) await expectAccepted(response)
    for (const response of responses.slice(valid.length)) await expectProblem(response, 422)
    expect(await h.drain()).toBe(valid.length)
    expect(await newRows()).toHaveLength(valid.length)
  })

  test('the database holds exactly one deployment per 202 sent', async () => {
    expect(accepted).toBeGreaterThan(50)
    expect(await h.deploymentCount()).toBe(accepted)
  })

  test('the listing returns every accepted deployment', async () => {
    const ids: string[] = []
    let cursor: string | null = null
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`
      const response = await h.get(`/v1/deployments?limit=100${query}`)
      const text = await response.text()
      expect({ status: response.status, body: text }).toEqual({
        status: 200,
        body: expect.any(String),
      })
      const page = JSON.parse(text) as { data: { id: string }[]; nextCursor: string | null }
      ids.push(...page.data.map((d) => d.id))
      cursor = page.nextCursor
    } while (cursor !== null)
    expect(ids).toHaveLength(accepted)
    expect(new Set(ids)).toEqual(seenIds)
  })
})
