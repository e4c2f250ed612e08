import { describe, expect, test } from 'bun:test'
import { parseIdempotencyKey, validateDeploymentHeaders } from './idempotency-key.ts'

describe('parseIdempotencyKey', () => {
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
})

describe('validateDeploymentHeaders', () => {
  test('no header: no key', () => {
    expect(validateDeploymentHeaders(new Headers())).toEqual({
      ok: true,
      value: { idempotencyKey: undefined },
    })
  })

  test('a malformed key is an error on the header itself', () => {
    expect(validateDeploymentHeaders(new Headers({ 'Idempotency-Key': 'two words' }))).toEqual({
      ok: false,
      errors: [
        {
          field: 'Idempotency-Key',
          message: 'must be 1 to 255 printable ASCII characters, for example a UUID',
        },
      ],
    })
  })
})
