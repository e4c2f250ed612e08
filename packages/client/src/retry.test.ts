import { expect, test } from 'bun:test'
import { backoffDelay, isRetryableStatus, parseRetryAfter } from './retry.ts'

const NOW = Date.parse('2026-05-01T12:00:00Z')

test.each([
  ['30', 30_000],
  ['0', 0],
  [' 2 ', 2_000],
  ['Fri, 01 May 2026 12:00:07 GMT', 7_000],
  // A date already past means "now", not a negative wait.
  ['Fri, 01 May 2026 11:59:00 GMT', 0],
])('Retry-After %p asks for %p ms', (header, ms) => {
  expect(parseRetryAfter(header, NOW)).toBe(ms)
})

test.each([null, '', '1.5', '-1', 'soon', '2026-05-01T12:00:07Z', 'Fri, 99 Nope 2026 GMT'])(
  'Retry-After %p is no instruction',
  (header) => {
    expect(parseRetryAfter(header, NOW)).toBeUndefined()
  },
)

test('backoff doubles per attempt, jittered between half and all of it, capped at 30 s', () => {
  expect(backoffDelay(0, () => 0)).toBe(250)
  expect(backoffDelay(0, () => 1)).toBe(500)
  expect(backoffDelay(3, () => 0.5)).toBe(3_000)
  expect(backoffDelay(20, () => 1)).toBe(30_000)
  for (let attempt = 0; attempt < 10; attempt++) {
    const delay = backoffDelay(attempt)
    const ceiling = Math.min(30_000, 500 * 2 ** attempt)
    expect(delay).toBeGreaterThanOrEqual(ceiling / 2)
    expect(delay).toBeLessThanOrEqual(ceiling)
  }
})

test('only 429 and 503 are worth repeating', () => {
  expect([429, 503].every(isRetryableStatus)).toBe(true)
  expect([400, 401, 404, 408, 413, 422, 500, 502].some(isRetryableStatus)).toBe(false)
})
