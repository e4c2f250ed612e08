import { expect, test } from 'bun:test'
import { parseIdempotencyKey } from './idempotency-key.ts'

test.each([
  ['8e03978e-40d5-43e8-bc93-6894a57f9324', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
  ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
  ['"with space"', 'with space'],
  ['  padded  ', 'padded'],
])('%p is the key %p', (header, key) => {
  expect(parseIdempotencyKey(header)).toEqual({ ok: true, key })
})

test.each(['', '""', 'two words', '"unterminated', 'é', 'x'.repeat(256)])(
  '%p is refused',
  (header) => {
    expect(parseIdempotencyKey(header).ok).toBe(false)
  },
)
