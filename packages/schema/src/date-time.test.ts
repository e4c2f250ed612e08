import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import {
  EARLIEST_MICROS,
  instantFromMicros,
  LATEST_MICROS,
  parseDateOrDateTime,
  parseDateTime,
} from './date-time.ts'

describe('instantFromMicros', () => {
  test.each([
    [0n, '1970-01-01T00:00:00.000Z'],
    [-1n, '1969-12-31T23:59:59.999999Z'],
    [1_000n, '1970-01-01T00:00:00.001Z'],
    [EARLIEST_MICROS, '0001-01-01T00:00:00.000Z'],
    [LATEST_MICROS, '9999-12-31T23:59:59.999999Z'],
    [951_782_400_000_000n, '2000-02-29T00:00:00.000Z'],
  ])('%p is %p, as Postgres renders it', (micros, iso) => {
    expect(instantFromMicros(micros).iso).toBe(iso)
  })

  test('agrees with Date for every millisecond instant from year 1 to 9999', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: EARLIEST_MICROS / 1000n, max: LATEST_MICROS / 1000n }),
        (millis) => {
          expect(instantFromMicros(millis * 1000n).iso).toBe(new Date(Number(millis)).toISOString())
        },
      ),
      { numRuns: 2000 },
    )
  })

  test('parses back to the same microsecond', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: EARLIEST_MICROS, max: LATEST_MICROS }), (micros) => {
        const parsed = parseDateTime(instantFromMicros(micros).iso)
        expect(parsed.ok && parsed.instant.micros).toBe(micros)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('parseDateTime', () => {
  test.each([
    '"2000-01-01T00:00:00Z"',
    '+002024-01-01T00:00:00Z',
    'Mon Jan 01 2024 00:00:00 GMT+0000 (Coordinated Universal Time)',
    '2024-01-01T00:00:00Z ',
    '2024-01-01T00:00:00\u0000Z',
  ])('%p is not RFC 3339', (value) => {
    expect(parseDateTime(value)).toEqual({ ok: false, reason: 'syntax' })
  })

  test.each([
    '2024-02-30T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00+00:01',
    '9999-12-31T23:59:59.9999999Z',
    '9999-12-31T23:00:00-14:00',
  ])('%p is outside what can be stored', (value) => {
    expect(parseDateTime(value)).toEqual({ ok: false, reason: 'range' })
  })

  test('a 150-digit fraction is read as Postgres reads it', () => {
    const parsed = parseDateTime(`2024-01-01T00:00:00.${'1'.repeat(150)}Z`)
    expect(parsed.ok && parsed.instant.iso).toBe('2024-01-01T00:00:00.111111Z')
  })
})

describe('parseDateOrDateTime', () => {
  test.each([
    ['2026-05-01', '2026-05-01T00:00:00.000Z'],
    ['0001-01-01', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31', '9999-12-31T00:00:00.000Z'],
    ['2026-05-01T12:30:00+02:00', '2026-05-01T10:30:00.000Z'],
  ])('%p is %p', (value, iso) => {
    const parsed = parseDateOrDateTime(value)
    expect(parsed.ok && parsed.instant.iso).toBe(iso)
  })

  test.each([
    ['2026-02-29', 'range'],
    ['0000-01-01', 'range'],
    ['2026-5-1', 'syntax'],
    ['20260501', 'syntax'],
    ['2026-05-01 ', 'syntax'],
    ['2026-05-01T10:00', 'syntax'],
  ] as const)('%p is refused (%p)', (value, reason) => {
    expect(parseDateOrDateTime(value)).toEqual({ ok: false, reason })
  })
})
