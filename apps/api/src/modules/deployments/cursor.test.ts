import { expect, test } from 'bun:test'
import { decodeCursor, encodeCursor } from './cursor.ts'

test('a cursor round-trips microseconds and id exactly', () => {
  const cursor = {
    deployedAtMicros: 1_767_225_600_123_456n,
    id: '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4',
  }
  expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor)
})

test.each([
  '',
  'bm9wZQ',
  encodeURIComponent('1.2.3'),
  Buffer.from('12.not-a-uuid').toString('base64url'),
])('anything else is not a cursor (%p)', (encoded) => {
  expect(decodeCursor(encoded)).toBeUndefined()
})
