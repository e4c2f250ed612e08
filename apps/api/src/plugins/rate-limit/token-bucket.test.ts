import { describe, expect, test } from 'bun:test'
import { TokenBucket } from './token-bucket.ts'

describe('TokenBucket', () => {
  test('starts full, spends one token per take, then denies', () => {
    const bucket = new TokenBucket({ capacity: 3, perMinute: 60 }, 0)
    expect([0, 0, 0, 0].map((now) => bucket.take(now).allowed)).toEqual([true, true, true, false])
  })

  test('refills continuously at perMinute / 60 tokens a second, never above capacity', () => {
    const bucket = new TokenBucket({ capacity: 2, perMinute: 60 }, 0)
    bucket.take(0)
    bucket.take(0)
    expect(bucket.take(500).allowed).toBe(false)
    expect(bucket.take(1_000).allowed).toBe(true)
    expect(bucket.peek(3_600_000)).toBe(2)
  })

  test('reports remaining, seconds until full, and seconds until the next token', () => {
    const bucket = new TokenBucket({ capacity: 10, perMinute: 6 }, 0)
    const first = bucket.take(0)
    expect(first).toMatchObject({ allowed: true, limit: 10, remaining: 9, resetSeconds: 10 })
    for (let index = 0; index < 9; index++) bucket.take(0)
    const denied = bucket.take(0)
    expect(denied).toMatchObject({
      allowed: false,
      remaining: 0,
      retryAfterSeconds: 10,
      resetSeconds: 100,
    })
  })

  test('a clock that goes backwards does not mint tokens', () => {
    const bucket = new TokenBucket({ capacity: 1, perMinute: 60 }, 10_000)
    bucket.take(10_000)
    expect(bucket.take(5_000).allowed).toBe(false)
  })
})
