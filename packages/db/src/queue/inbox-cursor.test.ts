import { expect, test } from 'bun:test'
import { InboxCursor } from './inbox-cursor.ts'

const at = (ms: number) => {
  const hex = ms.toString(16).padStart(12, '0')
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7abc-8000-000000000001`
}
const T = 1_764_000_000_000

test('walks from the first id until something is taken, then from 2 s before the newest id', () => {
  const cursor = new InboxCursor()
  expect(cursor.start(T)).toBeUndefined()
  cursor.advance([at(T + 5_000), at(T + 9_000), at(T + 7_000)])
  const start = cursor.start(T + 1) as string
  expect(start < at(T + 7_000)).toBe(true)
  expect(start > at(T + 6_999)).toBe(true)
})

test('after a rollback and every 10 s the walk starts from the first id again', () => {
  const cursor = new InboxCursor()
  cursor.start(T)
  cursor.advance([at(T)])
  expect(cursor.start(T + 1)).toBeDefined()
  expect(cursor.start(T + 10_000)).toBeUndefined()
  expect(cursor.start(T + 10_001)).toBeDefined()
  cursor.rewind()
  expect(cursor.start(T + 10_002)).toBeUndefined()
})

test('ids that are not UUIDv7 do not move it', () => {
  const cursor = new InboxCursor()
  cursor.start(T)
  cursor.advance(['6f1c2a4e-9b1d-4c3e-8f00-000000000000'])
  expect(cursor.start(T + 1)).toBeUndefined()
})
