import { describe, expect, test } from 'bun:test'
import { LeasedRateLimiter, type LeaseSource } from './leased-limiter.ts'

/** A shared bucket in memory with the semantics of the SQL function, counting round trips. */
function sharedBucket(clock: { now: number }) {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const calls: number[] = []
  const lease: LeaseSource = async (keyId, wanted, shape) => {
    calls.push(wanted)
    const bucket = buckets.get(keyId) ?? { tokens: shape.capacity, at: clock.now }
    const available = Math.min(
      shape.capacity,
      bucket.tokens + ((clock.now - bucket.at) * shape.perMinute) / 60_000,
    )
    const granted = Math.min(wanted, Math.floor(available))
    buckets.set(keyId, { tokens: available - granted, at: clock.now })
    return { granted, remaining: available - granted }
  }
  return { lease, calls }
}

describe('LeasedRateLimiter', () => {
  test('replicas sharing one bucket never grant more than its capacity together', async () => {
    const clock = { now: 0 }
    const shared = sharedBucket(clock)
    const replicas = [0, 1, 2].map(() => new LeasedRateLimiter(shared.lease, () => clock.now))
    const shape = { capacity: 100, perMinute: 100 }
    const decisions = await Promise.all(
      Array.from({ length: 300 }, (_, index) => replicas[index % 3]?.take('k', shape)),
    )
    expect(decisions.filter((decision) => decision?.allowed).length).toBe(100)
  })

  test('spends leased tokens from memory: one round trip per lease of 5% of capacity', async () => {
    const clock = { now: 0 }
    const shared = sharedBucket(clock)
    const limiter = new LeasedRateLimiter(shared.lease, () => clock.now)
    for (let index = 0; index < 40; index++)
      await limiter.take('k', { capacity: 200, perMinute: 200 })
    expect(shared.calls).toEqual([10, 10, 10, 10])
  })

  test('an empty shared bucket is remembered until its next token is due', async () => {
    const clock = { now: 0 }
    const shared = sharedBucket(clock)
    const limiter = new LeasedRateLimiter(shared.lease, () => clock.now)
    const shape = { capacity: 2, perMinute: 60 }
    await limiter.take('k', shape)
    await limiter.take('k', shape)
    const denied = await limiter.take('k', shape)
    expect(denied).toMatchObject({ allowed: false, retryAfterSeconds: 1 })
    const callsWhileEmpty = shared.calls.length
    for (let index = 0; index < 10; index++) await limiter.take('k', shape)
    expect(shared.calls.length).toBe(callsWhileEmpty)
    clock.now = 1_000
    expect((await limiter.take('k', shape)).allowed).toBe(true)
  })

  test('concurrent requests share one lease call', async () => {
    const clock = { now: 0 }
    const shared = sharedBucket(clock)
    const limiter = new LeasedRateLimiter(shared.lease, () => clock.now)
    const decisions = await Promise.all(
      Array.from({ length: 8 }, () => limiter.take('k', { capacity: 20, perMinute: 20 })),
    )
    expect(decisions.every((decision) => decision.allowed)).toBe(true)
    expect(shared.calls[0]).toBe(8)
    expect(shared.calls).toHaveLength(1)
  })

  test('leased tokens left unused for a minute are dropped, not hoarded', async () => {
    const clock = { now: 0 }
    const shared = sharedBucket(clock)
    const limiter = new LeasedRateLimiter(shared.lease, () => clock.now)
    await limiter.take('k', { capacity: 100, perMinute: 1 })
    clock.now = 61_000
    await limiter.take('k', { capacity: 100, perMinute: 1 })
    expect(shared.calls).toHaveLength(2)
  })

  test('a lease that fails rejects, so the request can answer 503', async () => {
    const limiter = new LeasedRateLimiter(async () => {
      throw new Error('connection refused')
    })
    await expect(limiter.take('k', { capacity: 10, perMinute: 10 })).rejects.toThrow(
      'connection refused',
    )
  })
})
