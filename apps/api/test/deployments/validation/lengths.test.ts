/**
 * Validation of `POST /v1/deployments`, end to end through HTTP: the length limits of
 * decisions.md §2, counted in Unicode code points, and what ends up recorded.
 */
import { describe, expect, test } from 'bun:test'
import {
  bytesOf,
  codePoints,
  type Field,
  repeatTo,
  validationSuite,
} from '../../support/validation-suite.ts'

const v = validationSuite()
const { body, unique, acceptAndRecord, expectFieldError } = v

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

const cases = LIMITS.flatMap(([field, limit]) =>
  // A commit hash is hexadecimal, so only ASCII can reach its limit.
  (field === 'commitHash' ? [['hexadecimal', 'a'] as [string, string]] : UNITS).map(
    ([kind, unit]) => ({ field, limit, kind, unit }),
  ),
)

describe('length limits are counted in Unicode code points', () => {
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
      await expectFieldError(await v.h.post(body({ [field]: value })), field, String(limit))
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
      await v.h.post(body({ app: '😀'.repeat(256) })),
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
      await v.h.post(body({ description: family.repeat(52) })),
      'description',
      '255',
    )
  })

  test('a mix of ASCII and astral characters totalling 70 is a valid version', async () => {
    const value = `${'a😀'.repeat(34)}𝄞b`
    expect(codePoints(value)).toBe(70)
    const row = await acceptAndRecord(body({ version: value }))
    expect(row.version).toBe(value)
    await expectFieldError(await v.h.post(body({ version: `${value}c` })), 'version', '70')
  })
})

// Each case is sent once at its limit and once past it; each limit once padded with spaces.
v.reconcile({ accepted: cases.length + LIMITS.length, rejected: cases.length })
