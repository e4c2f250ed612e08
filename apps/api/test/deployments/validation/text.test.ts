/**
 * Validation of `POST /v1/deployments`, end to end through HTTP: what every field accepts as text
 * (decisions.md §2): control characters, Unicode, surrounding whitespace, empty values and values
 * that are not strings at all.
 */
import { describe, expect, test } from 'bun:test'
import {
  FIELDS,
  type Field,
  OPTIONAL,
  REQUIRED,
  SAMPLE,
  validationSuite,
} from '../../support/validation-suite.ts'

const v = validationSuite()
const { body, unique, acceptAndRecord, expectFieldError, expectDeployedWhenReceived, postRaw } = v

/** `value` with `char` put in its middle. */
const withInside = (value: string, char: string) => `${value.slice(0, 4)}${char}${value.slice(4)}`

const controlCases = FIELDS.flatMap((field) =>
  (
    [
      ['NUL (U+0000)', '\u0000'],
      ['a line feed', '\n'],
      ['DEL (U+007F)', '\u007f'],
    ] as const
  ).map(([name, char]) => ({ field, name, char })),
)

describe('control characters are rejected in every field', () => {
  test.each(controlCases)('$name inside $field is rejected', async ({ field, char }) => {
    await expectFieldError(
      await v.h.post(body({ [field]: withInside(SAMPLE[field], char) })),
      field,
      /control/,
    )
  })

  test('no control character ever reached Postgres: nothing queued, nothing recorded', async () => {
    // A NUL would have made Postgres throw in the worker; a job that got that far would show here.
    expect(await v.h.drain()).toBe(0)
    expect(await v.h.deploymentCount()).toBe(v.accepted)
    const [row] = await v.h.sql<{ count: number }[]>`
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

const LONE_SURROGATES = [
  ['a lone high surrogate', 'app', '"chk\\ud800out"'],
  ['a lone low surrogate', 'app', '"chk\\udc00out"'],
  ['a reversed pair', 'environment', '"prod\\ude00\\ud83d"'],
  ['a high surrogate at the end', 'description', '"broken \\ud83d"'],
  ['a lone surrogate', 'author', '"\\udfff"'],
  ['a lone surrogate', 'version', '"1.0\\ud800"'],
]

describe('Unicode', () => {
  test.each(LONE_SURROGATES)(
    '%s in %s (a JSON escape sent as raw text) is rejected',
    async (_, field, literal) => {
      const raw = rawJsonWith(field as Field, literal)
      await expectFieldError(await postRaw(raw), field, /surrogate|Unicode/i)
    },
  )

  test('a valid surrogate pair written as JSON escapes is accepted as one character', async () => {
    const raw = rawJsonWith('description', '"ship it \\ud83d\\ude80"')
    const row = await acceptAndRecord(undefined, {
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    })
    expect(row.description).toBe('ship it 🚀')
  })

  test('a right-to-left mark (U+200F) and a zero-width joiner (U+200D) are stored intact in free text', async () => {
    const description = 'שלום\u200f world \u200d'
    const author = 'a\u200db'
    const version = 'v\u200f1'
    const row = await acceptAndRecord(body({ description, author, version }))
    expect(row.description).toBe(description)
    expect(row.author).toBe(author)
    expect(row.version).toBe(version)
  })

  test('names are stored in NFC: e + U+0301 is stored as é', async () => {
    const app = unique('cafe\u0301')
    const row = await acceptAndRecord(body({ app }))
    expect(row.app).toBe(app.normalize('NFC'))
  })
})

const BLANK_REQUIRED = REQUIRED.flatMap((field) => [[field, ''] as const, [field, '   '] as const])
const OPTIONAL_TEXT = ['description', 'author', 'monorepoPath'] as const
const ABSENT_VALUES = [null, '', '   ']

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

  test.each(BLANK_REQUIRED)('required %s given %j is rejected', async (field, value) => {
    await expectFieldError(await v.h.post(body({ [field]: value })), field, /empty|required/)
  })

  test.each(REQUIRED)('required %s given null is rejected as missing', async (field) => {
    await expectFieldError(await v.h.post(body({ [field]: null })), field, /required/)
  })

  test.each(REQUIRED)('required %s left out is rejected as missing', async (field) => {
    const payload = body()
    delete payload[field]
    await expectFieldError(await v.h.post(payload), field, /required/)
  })

  test.each(OPTIONAL_TEXT)(
    'optional %s given null, empty or blank is stored as absent',
    async (field) => {
      for (const value of ABSENT_VALUES) {
        const row = await acceptAndRecord(body({ [field]: value }))
        expect(row[field]).toBeNull()
      }
    },
  )

  test('deployedAt given null means the time of the request', async () => {
    await expectDeployedWhenReceived(body({ deployedAt: null }))
  })

  test('every optional field given null at once is accepted', async () => {
    const nulls = Object.fromEntries(OPTIONAL.map((field) => [field, null]))
    const row = await acceptAndRecord(body(nulls))
    expect(row.description).toBeNull()
    expect(row.author).toBeNull()
    expect(row.monorepoPath).toBeNull()
  })
})

const typeCases = FIELDS.flatMap((field) =>
  (
    [
      ['a number', 42],
      ['an object', { value: 'x' }],
      ['a boolean', true],
      ['an array', ['x']],
    ] as const
  ).map(([kind, value]) => ({ field, kind, value })),
)

describe('wrong JSON types', () => {
  test.each(typeCases)('$field given $kind is rejected with "must be a string"', async (c) => {
    await expectFieldError(
      await v.h.post(body({ [c.field]: c.value })),
      c.field,
      'must be a string',
    )
  })
})

// Every row of the tables above is one request, except that each optional field sends one per
// absent value, and each required field is also sent as null and left out.
v.reconcile({
  accepted: FIELDS.length + OPTIONAL_TEXT.length * ABSENT_VALUES.length,
  rejected:
    controlCases.length +
    LONE_SURROGATES.length +
    BLANK_REQUIRED.length +
    2 * REQUIRED.length +
    typeCases.length,
})
