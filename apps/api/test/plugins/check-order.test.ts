// The order in which a request is checked: key, then quota, then body.
import { describe, expect, test } from 'bun:test'
import { harnessPerFile } from '../support/harness.ts'

const h = harnessPerFile()

describe('order of checks', () => {
  test('a bad key gets 401 even with an invalid body', async () => {
    const response = await h.post({ nonsense: true }, { key: `shiplog_${'B'.repeat(43)}` })
    expect(response.status).toBe(401)
  })

  test('an exhausted key gets 429 even with an invalid body, and 401 still comes first', async () => {
    const { key } = await h.createKey({ rateLimitPerMinute: 2 })
    expect((await h.post({ nonsense: true }, { key })).status).toBe(422)
    expect((await h.post({ nonsense: true }, { key })).status).toBe(422)
    const limited = await h.post({ nonsense: true }, { key })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('content-type')).toBe('application/problem+json')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await h.post({ nonsense: true }, { key: `shiplog_${'C'.repeat(43)}` })).status).toBe(
      401,
    )
  })

  test('with a valid key and quota, an invalid body is 422', async () => {
    expect((await h.post({ nonsense: true })).status).toBe(422)
  })
})
