import { expect, test } from 'bun:test'
import { EARLIEST_MICROS, LATEST_MICROS } from './date-time.ts'
import { decodeCursor, encodeCursor } from './page-cursor.ts'

const ID = '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4'
const forge = (text: string) => Buffer.from(text).toString('base64url')

test('a cursor round-trips microseconds and id exactly', () => {
  for (const deployedAtMicros of [1_767_225_600_123_456n, EARLIEST_MICROS, LATEST_MICROS, -1n]) {
    const cursor = { deployedAtMicros, id: ID }
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor)
  }
})

test('the encoding is base64url without padding, as before', () => {
  const cursor = { deployedAtMicros: 1_767_225_600_123_456n, id: ID }
  expect(encodeCursor(cursor)).toBe(forge(`${cursor.deployedAtMicros}.${ID}`))
})

test.each([
  '',
  'bm9wZQ',
  'a',
  '%%%',
  'YWJj=',
  encodeURIComponent('1.2.3'),
  forge('12.not-a-uuid'),
  forge(`12.${'-'.repeat(36)}`),
  forge(`12.${ID.replaceAll('-', '')}----`),
  forge(`12.${ID.toUpperCase()}`),
  forge(`${EARLIEST_MICROS - 1n}.${ID}`),
  forge(`${LATEST_MICROS + 1n}.${ID}`),
  forge(`9999999999999999999.${ID}`),
  forge(`-9999999999999999999.${ID}`),
  forge(`1.${ID}\u0000`),
])('anything else is not a cursor (%p)', (encoded) => {
  expect(decodeCursor(encoded)).toBeUndefined()
})
