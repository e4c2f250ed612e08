/**
 * Ingestion, end to end through HTTP: who may post (authentication, the order of checks, rate
 * limits), and the health endpoints.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Harness, startHarness, validDeployment } from '../harness.ts'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

describe('authentication', () => {
  test('a missing key is 401 with a problem body and a Bearer challenge', async () => {
    const response = await h.post(validDeployment(), { key: null })
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    expect(response.headers.get('www-authenticate')).toContain('Bearer')
    const body = await response.json()
    expect(body).toMatchObject({
      status: 401,
      type: '/problems/unauthorized',
      title: 'Unauthorized',
    })
    expect(body.detail).toContain('Authorization: Bearer')
  })

  test.each([
    ['an unknown key', `shiplog_${'A'.repeat(43)}`],
    ['a malformed key', 'not-a-key'],
    ['a key of the wrong length', 'shiplog_short'],
  ])('%s is 401 and never echoed back', async (_, key) => {
    const response = await h.post(validDeployment(), { key })
    expect(response.status).toBe(401)
    expect(await response.text()).not.toContain(key)
  })

  test('a scheme other than Bearer is 401', async () => {
    const response = await h.post(validDeployment(), {
      key: null,
      headers: { authorization: `Basic ${h.defaultKey}` },
    })
    expect(response.status).toBe(401)
  })

  test('a revoked key is refused within 5 seconds', async () => {
    const { key, id } = await h.createKey()
    expect((await h.post(validDeployment({ version: 'before-revoke' }), { key })).status).toBe(202)
    await h.sql`update api_keys set revoked_at = now() where id = ${id}`
    const revokedAt = Date.now()
    let status = 202
    while (status !== 401 && Date.now() - revokedAt < 5_000) {
      status = (await h.post(validDeployment({ version: 'after-revoke' }), { key })).status
      if (status !== 401) await Bun.sleep(100)
    }
    expect(status).toBe(401)
    expect(Date.now() - revokedAt).toBeLessThan(5_000)
  })
})

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
    const flooded = await startHarness({
      UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '5',
      CLIENT_IP_HEADER: 'x-forwarded-for',
    })
    try {
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
    } finally {
      await flooded.close()
    }
  })
})

describe('health', () => {
  test('/healthz and /readyz answer 200 when Postgres is migrated', async () => {
    expect((await h.get('/healthz', { key: null })).status).toBe(200)
    const ready = await h.get('/readyz', { key: null })
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
  })

  test('an unknown path is a 404 problem', async () => {
    const response = await h.get('/v2/nothing', { key: null })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
  })
})
