import { expect, test } from 'bun:test'
import { createUuidV7 } from './uuidv7.ts'

test('UUIDv7: version 7, RFC variant, time in the first 48 bits', () => {
  const uuidv7 = createUuidV7()
  const now = Date.UTC(2026, 10, 22)
  const id = uuidv7(now)
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now)
})

test('ids sort by creation time and do not collide', () => {
  const uuidv7 = createUuidV7()
  const ids = Array.from({ length: 1_000 }, (_, index) => uuidv7(1_000_000 + index))
  expect([...ids].sort()).toEqual(ids)
  expect(new Set(Array.from({ length: 10_000 }, () => uuidv7())).size).toBe(10_000)
})

test('ids made within one millisecond still sort in the order they were made', () => {
  const uuidv7 = createUuidV7()
  const now = Date.UTC(2027, 0, 1)
  const ids = Array.from({ length: 5_000 }, () => uuidv7(now))
  expect([...ids].sort()).toEqual(ids)
  expect(new Set(ids).size).toBe(5_000)
})

test('a clock that steps back does not break the order', () => {
  const uuidv7 = createUuidV7()
  const first = uuidv7(Date.UTC(2028, 0, 1, 0, 0, 1))
  const second = uuidv7(Date.UTC(2028, 0, 1, 0, 0, 0))
  expect(second > first).toBe(true)
})
