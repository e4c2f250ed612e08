// Each key's quota per minute, the RateLimit headers that count it down, and the per-address
// limit on bad keys.
import { describe, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile, withHarness } from '../../support/harness.ts'

const h = harnessPerFile()

describe('rate limit', () => {
  test('every authenticated response carries RateLimit headers that count down', async () => {
    const { key } = await h.createKey({ rateLimitPerMinute: 10 })
    const first = await h.post(validDeployment({ version: 'rl-1' }), { key })
    const second = await h.post({ bad: 1 }, { key })
    for (const response of [first, second]) {
      expect(response.headers.get('ratelimit-limit')).toBe('10')
      expect(response.headers.get('ratelimit-reset')).toMatch(/^\d+$/)
    }
    expect(Number(first.headers.get('ratelimit-remaining'))).toBe(9)
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(8)
    const list = await h.get('/v1/deployments', { key })
    expect(list.headers.get('ratelimit-remaining')).toBe('7')
  })

  test('a key gets its quota and then 429 with Retry-After and RateLimit-Remaining 0', async () => {
    const { key } = await h.createKey({ rateLimitPerMinute: 5 })
    const statuses: number[] = []
    let last: Response | undefined
    for (let index = 0; index < 8; index++) {
      last = await h.post(validDeployment({ version: `quota-${index}` }), { key })
      statuses.push(last.status)
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429, 429])
    expect(last?.headers.get('ratelimit-remaining')).toBe('0')
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(last?.headers.get('retry-after'))).toBeLessThanOrEqual(12)
  })

  test('quotas are per key: one key running dry does not limit another', async () => {
    const dry = await h.createKey({ rateLimitPerMinute: 1 })
    await h.post(validDeployment({ version: 'dry-1' }), { key: dry.key })
    expect((await h.post(validDeployment({ version: 'dry-2' }), { key: dry.key })).status).toBe(429)
    expect((await h.post(validDeployment({ version: 'other' }))).status).toBe(202)
  })

  test('floods of bad keys from one address run into 429; a key in use there keeps working', async () => {
    await withHarness(
      {
        UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '5',
        CLIENT_IP_HEADER: 'x-forwarded-for',
      },
      async (flooded) => {
        const inUse = await flooded.post(validDeployment(), {
          headers: { 'x-forwarded-for': '203.0.113.9' },
        })
        expect(inUse.status).toBe(202)
        const statuses: number[] = []
        for (let index = 0; index < 8; index++) {
          const response = await flooded.post(validDeployment(), {
            key: `shiplog_${String(index).padStart(43, 'x')}`,
            headers: { 'x-forwarded-for': '203.0.113.9' },
          })
          statuses.push(response.status)
        }
        expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429])
        // A valid key never seen from there is not looked up while the address is flooding.
        const newcomer = await flooded.createKey()
        const stranger = await flooded.post(validDeployment(), {
          key: newcomer.key,
          headers: { 'x-forwarded-for': '203.0.113.9' },
        })
        expect(stranger.status).toBe(429)
        const good = await flooded.post(validDeployment(), {
          headers: { 'x-forwarded-for': '203.0.113.9' },
        })
        expect(good.status).toBe(202)
        const elsewhere = await flooded.post(validDeployment(), {
          key: `shiplog_${'z'.repeat(43)}`,
          headers: { 'x-forwarded-for': '198.51.100.1' },
        })
        expect(elsewhere.status).toBe(401)
      },
    )
  })
})
