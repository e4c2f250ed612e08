import { describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { encodeCursor } from './page-cursor.ts'
import { CursorParameter, DateTimeParameter, parseParameters } from './parameters.ts'

const Query = Type.Object(
  {
    app: Type.Optional(Type.String({ minLength: 1, maxLength: 5 })),
    commitHash: Type.Optional(
      Type.String({ pattern: '^[0-9a-f]{4,}$', errorMessage: 'must be hexadecimal' }),
    ),
    since: Type.Optional(DateTimeParameter('from')),
    status: Type.Optional(
      Type.Union([Type.Literal('recorded'), Type.Literal('queued')], { default: 'recorded' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(CursorParameter('next page')),
  },
  { additionalProperties: false },
)
const Path = Type.Object({ id: Type.String({ format: 'uuid' }) })

const parse = (query: string) => parseParameters(Query, new URLSearchParams(query))
const errorsOf = (query: string) => {
  const result = parse(query)
  return result.ok ? [] : result.errors
}

describe('query strings', () => {
  test('typed values, defaults applied, text trimmed', () => {
    const cursor = encodeCursor({
      deployedAtMicros: 5n,
      id: '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4',
    })
    const result = parse(`app=%20api%20&since=2024-01-01T02:00:00%2B02:00&limit=7&cursor=${cursor}`)
    expect(result).toEqual({
      ok: true,
      value: {
        app: 'api',
        since: { micros: 1_704_067_200_000_000n, iso: '2024-01-01T00:00:00.000Z' },
        status: 'recorded',
        limit: 7,
        cursor: { deployedAtMicros: 5n, id: '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4' },
      },
    })
  })

  test.each([
    ['app=a%00b', 'app', 'must not contain control characters'],
    ['app=%20', 'app', 'must not be empty'],
    ['app=abcdef', 'app', 'must be at most 5 characters (got 6)'],
    ['app=a&app=b', 'app', 'is given 2 times; give it once'],
    ['commitHash=xyz1', 'commitHash', 'must be hexadecimal'],
    ['since=%222000-01-01T00:00:00Z%22', 'since', expect.stringContaining('RFC 3339')],
    ['since=2024-02-30T00:00:00Z', 'since', expect.stringContaining('real date')],
    ['since=2024-02-30', 'since', expect.stringContaining('real date')],
    ['since=2024-5-1', 'since', expect.stringContaining('a date (2026-05-01')],
    ['since=2024-05-01T10:00', 'since', expect.stringContaining('RFC 3339')],
    ['since=0000-01-01T00:00:00Z', 'since', expect.stringContaining('real date')],
    ['status=all', 'status', 'must be one of recorded, queued'],
    ['limit=0', 'limit', 'must be a whole number from 1 to 100'],
    ['limit=1e2', 'limit', 'must be a whole number from 1 to 100'],
    ['limit=99999999999999999999', 'limit', 'must be a whole number from 1 to 100'],
    ['cursor=Zm9v', 'cursor', expect.stringContaining('nextCursor')],
    ['__proto__=1', '__proto__', expect.stringContaining('not a known query parameter')],
  ])('%p is refused', (query, field, message) => {
    expect(errorsOf(query)).toEqual([{ field, message }])
  })

  test('a plain date is its midnight UTC, as the same day written in full', () => {
    const plain = parse('since=2026-05-01')
    const full = parse('since=2026-05-01T00:00:00Z')
    expect(plain).toEqual(full)
    expect(plain.ok && plain.value.since?.iso).toBe('2026-05-01T00:00:00.000Z')
    expect(parse('since=2024-02-29').ok).toBe(true)
  })

  test('every bad parameter is reported at once', () => {
    expect(errorsOf('app=&limit=x&nope=1').map((error) => error.field)).toEqual([
      'app',
      'limit',
      'nope',
    ])
  })
})

describe('path parameters', () => {
  test('a uuid in any case becomes canonical', () => {
    expect(parseParameters(Path, { id: '01A201B7-0F85-709F-A9E9-A1A8D0BC5CF4' })).toEqual({
      ok: true,
      value: { id: '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4' },
    })
  })

  test.each([
    'urn:uuid:01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4',
    '{01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4}',
    '01a201b70f85709fa9e9a1a8d0bc5cf4',
    '\u0000',
    null,
  ])('%p is not an id', (id) => {
    const result = parseParameters(Path, { id })
    expect(result.ok).toBe(false)
  })
})
