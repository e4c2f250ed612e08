import { describe, expect, test } from 'bun:test'
import { messageFor, NOW, normalized } from './testing/deployment-bodies.ts'
import { COMMIT_SHA, UNEXPANDED_SHA, validDeployment } from './testing/index.ts'
import { validateDeployment } from './validate-deployment.ts'

describe('repositoryFullName', () => {
  test.each(['owner/repo', 'group/sub/repo', 'a/b/c/d/e', 'Org.Name/repo_name-2'])(
    'accepts %p',
    (value) => {
      expect(normalized('repositoryFullName', value)).toBe(value)
    },
  )

  test.each(['repo', 'owner/', '/repo', '/', 'owner//repo', 'owner repo/x', 'owner/re po'])(
    'rejects %p',
    (value) => {
      expect(messageFor('repositoryFullName', value)).toBe('must look like owner/repo-name')
    },
  )
  // A space other than U+0020 is a look-alike of one, refused first by the names rule.
  test.each([
    ['owner/repo\u00a0x', 'U+00A0'],
    ['owner/repo\u3000x', 'U+3000'],
  ])('rejects %p naming the space', (value, codePoint) => {
    expect(messageFor('repositoryFullName', value)).toStartWith(`must not contain ${codePoint}`)
  })
})

describe('commitHash', () => {
  test('lower-cases and accepts 7 to 70 hex characters', () => {
    expect(normalized('commitHash', COMMIT_SHA.toUpperCase())).toBe(COMMIT_SHA)
    expect(normalized('commitHash', 'ABCDEF0')).toBe('abcdef0')
    expect(normalized('commitHash', ` ${COMMIT_SHA} `)).toBe(COMMIT_SHA)
    expect(normalized('commitHash', 'a'.repeat(64))).toBe('a'.repeat(64))
  })

  test.each([
    'abcdef',
    UNEXPANDED_SHA,
    '$CI_COMMIT_SHA',
    'g'.repeat(40),
    `${COMMIT_SHA}x`,
    'abc def0',
  ])('rejects %p', (value) => {
    expect(messageFor('commitHash', value)).toBe(
      'must be 7 to 70 hexadecimal characters: the full Git commit SHA (was a template variable left unexpanded?)',
    )
  })
})

describe('deployedAt', () => {
  const SYNTAX = 'must be an RFC 3339 date-time with a time zone, for example 2026-05-01T12:00:00Z'
  const RANGE =
    'must be a real date and time from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (in UTC): a day that exists in that month, hour 00-23, minute and second 00-59, offset hours 00-14'
  const FUTURE = 'must not be more than 5 minutes in the future'

  test.each([
    ['2026-05-01T12:00:00Z', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T14:00:00+02:00', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T06:00:00-06:00', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01t12:00:00z', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T12:00:00.123456Z', '2026-05-01T12:00:00.123456Z'],
    ['2026-05-01T12:00:00.1Z', '2026-05-01T12:00:00.100Z'],
    ['2026-05-01T12:00:00.123456789012Z', '2026-05-01T12:00:00.123457Z'],
    ['2026-05-01T12:00:00.0000005Z', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T12:00:00.0000015Z', '2026-05-01T12:00:00.000002Z'],
    ['2026-05-01T12:00:59.9999999Z', '2026-05-01T12:01:00.000Z'],
    [`2024-01-01T00:00:00.${'9'.repeat(200)}+02:00`, '2023-12-31T22:00:01.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['1970-01-01T00:00:00+14:00', '1969-12-31T10:00:00.000Z'],
    ['1970-01-01T00:00:00-14:59', '1970-01-01T14:59:00.000Z'],
    ['2025-12-31T23:59:59Z', '2025-12-31T23:59:59.000Z'],
  ])('accepts %p as the instant Postgres stores, %p', (value, stored) => {
    expect(normalized('deployedAt', value)).toBe(stored)
  })

  test.each([
    '2026-05-01T12:00:00',
    '2026-05-01',
    '2026-05-01 12:00:00Z',
    '2026-05-01T12:00Z',
    '2026-05-01T12:00:00.Z',
    '2026-05-01T12:00:00+0200',
    '2026-05-01T12:00:00+02',
    '26-05-01T12:00:00Z',
    '+002026-05-01T12:00:00Z',
    '2026-5-1T12:00:00Z',
    '２０２６-05-01T12:00:00Z',
    'yesterday',
  ])('rejects malformed %p', (value) => {
    expect(messageFor('deployedAt', value)).toBe(SYNTAX)
  })

  test.each([
    '0000-01-01T00:00:00Z',
    '2024-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-13-10T00:00:00Z',
    '2026-01-00T00:00:00Z',
    '2026-01-32T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:60:00Z',
    '2016-12-31T23:59:60Z',
    '2026-01-01T00:00:00+15:00',
    '2026-01-01T00:00:00-15:00',
    '2026-01-01T00:00:00+02:60',
  ])('rejects impossible %p', (value) => {
    expect(messageFor('deployedAt', value)).toBe(RANGE)
  })

  test('at most 5 minutes ahead of now', () => {
    expect(messageFor('deployedAt', '2026-05-01T12:04:00Z')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T12:05:00Z')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T12:05:00.000000Z')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T12:04:59.999999Z')).toBeUndefined()
    // Compared as stored: rounded to the microsecond, as Postgres rounds.
    expect(messageFor('deployedAt', '2026-05-01T12:05:00.0000004Z')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T12:05:00.0000006Z')).toBe(FUTURE)
    expect(messageFor('deployedAt', '2026-05-01T12:05:00.001Z')).toBe(FUTURE)
    expect(messageFor('deployedAt', '2026-05-01T12:06:00Z')).toBe(FUTURE)
    expect(messageFor('deployedAt', '2026-05-01T14:04:00+02:00')).toBeUndefined()
    expect(messageFor('deployedAt', '2026-05-01T14:06:00+02:00')).toBe(FUTURE)
    expect(messageFor('deployedAt', '2026-05-01T08:06:00-04:00')).toBe(FUTURE)
    expect(messageFor('deployedAt', '9999-12-31T23:59:59Z')).toBe(FUTURE)
  })

  test('uses the given now', () => {
    const later = new Date('2026-05-01T12:10:00Z')
    const body = validDeployment({ deployedAt: '2026-05-01T12:06:00Z' })
    expect(validateDeployment(body, NOW).ok).toBe(false)
    expect(validateDeployment(body, later).ok).toBe(true)
  })

  test('accepts any past date', () => {
    expect(normalized('deployedAt', '1000-06-15T08:30:00-03:00')).toBe('1000-06-15T11:30:00.000Z')
  })
})

describe('monorepoPath', () => {
  test.each([
    ['apps/api', 'apps/api'],
    ['./apps/api/', 'apps/api'],
    ['././apps/api', 'apps/api'],
    ['apps/api///', 'apps/api'],
    ['apps/./api', 'apps/./api'],
    ['.hidden/x', '.hidden/x'],
    ['apps/..x', 'apps/..x'],
    ['a\\b', 'a\\b'],
    ['./', null],
    ['././/', null],
    ['.', null],
  ])('%p → %p', (value, expected) => {
    expect(normalized('monorepoPath', value)).toBe(expected)
  })

  test.each(['..', '../x', 'a/../b', 'a/..', './../x', 'a//../b'])('rejects %p', (value) => {
    expect(messageFor('monorepoPath', value)).toBe("must be a relative path without '..' segments")
  })

  test.each(['/abs', '/', ' /abs'])('rejects absolute %p', (value) => {
    expect(messageFor('monorepoPath', value)).toBe(
      "must be a relative path: remove the leading '/'",
    )
  })

  test.each(['a//b', './/a'])('rejects empty segment in %p', (value) => {
    expect(messageFor('monorepoPath', value)).toBe("must not contain empty segments ('//')")
  })
})
