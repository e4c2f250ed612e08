import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { DeploymentInput } from '@shiplog/schema'
import {
  createShiplogClient,
  type FetchLike,
  ShiplogError,
  ShiplogNetworkError,
} from '../src/index.ts'
import { type LiveApi, startLiveApi, validDeployment } from './live-api.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let live: LiveApi
let key: string

beforeAll(async () => {
  live = await startLiveApi()
  key = await live.createKey()
}, 60_000)

afterAll(async () => {
  await live?.close()
})

/** What each attempt looked like on the wire. */
interface Exchange {
  status: number
  retryAfter: string | null
  idempotencyKey: string | null
}

function recordingFetch(): { fetch: FetchLike; exchanges: Exchange[] } {
  const exchanges: Exchange[] = []
  return {
    exchanges,
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      exchanges.push({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        idempotencyKey: new Headers(init.headers).get('idempotency-key'),
      })
      return response
    },
  }
}

describe('createDeployment', () => {
  test('answers with the id, its absolute URL and the key it sent', async () => {
    const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
    const created = await client.createDeployment(validDeployment({ version: 'c1' }))
    expect(created.id).toMatch(UUID)
    expect(created.location).toBe(`${live.url}/v1/deployments/${created.id}`)
    expect(created.idempotencyKey).toMatch(UUID)
  })

  test('a repeat with the same Idempotency-Key gets the same id; another body gets 422', async () => {
    const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
    const input = validDeployment({ version: 'c2' })
    const first = await client.createDeployment(input)
    const again = await client.createDeployment(input, { idempotencyKey: first.idempotencyKey })
    expect(again.id).toBe(first.id)
    expect(again.location).toBe(first.location)

    const other = await client
      .createDeployment(validDeployment({ version: 'c3' }), {
        idempotencyKey: first.idempotencyKey,
      })
      .catch((error) => error)
    expect(other).toBeInstanceOf(ShiplogError)
    expect(other.status).toBe(422)
    expect(other.fieldErrors.map((error: { field: string }) => error.field)).toEqual([
      'Idempotency-Key',
    ])
  })

  test('a 422 is a readable ShiplogError listing every field error', async () => {
    const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
    const bad = {
      ...validDeployment(),
      commitHash: 'not-a-sha',
      deployed_at: '2026-05-01T12:00:00Z',
    } as DeploymentInput
    const error = await client.createDeployment(bad).catch((caught) => caught)
    expect(error).toBeInstanceOf(ShiplogError)
    expect(error.status).toBe(422)
    expect(error.type).toBe('/problems/validation-failed')
    expect(error.fieldErrors.map((fieldError: { field: string }) => fieldError.field)).toEqual([
      'commitHash',
      'deployed_at',
    ])
    expect(error.message).toMatch(
      /^422 Validation failed: commitHash must be 7 to 70 hexadecimal characters.*; deployed_at is not a known field; did you mean "deployedAt"\?$/,
    )
  })

  test('an unknown key is a 401 ShiplogError, not retried', async () => {
    const wire = recordingFetch()
    const client = createShiplogClient({
      baseUrl: live.url,
      apiKey: `shiplog_${'A'.repeat(43)}`,
      fetch: wire.fetch,
    })
    const error = await client.createDeployment(validDeployment()).catch((caught) => caught)
    expect(error).toBeInstanceOf(ShiplogError)
    expect(error.status).toBe(401)
    expect(error.type).toBe('/problems/unauthorized')
    expect(error.message).toStartWith('401 Unauthorized: The API key is not valid')
    expect(wire.exchanges).toHaveLength(1)
  })
})

describe('waitUntilRecorded and reading back', () => {
  test('resolves once the worker has recorded it; the list then shows it', async () => {
    const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
    const input = validDeployment({ app: 'waiter', version: 'w1', author: 'octocat' })
    const created = await client.createDeployment(input)
    const recorded = await client.waitUntilRecorded(created.id, {
      timeoutMs: 20_000,
      intervalMs: 100,
    })
    expect(recorded).toMatchObject({
      ...input,
      id: created.id,
      status: 'recorded',
      failure: null,
      // Its User-Agent says it is Shiplog's client.
      source: 'cli',
    })
    expect(recorded.recordedAt).not.toBeNull()

    const page = await client.listDeployments({ app: 'WAITER', limit: 10 })
    expect(page.nextCursor).toBeNull()
    expect(page.data.map((record) => record.id)).toEqual([created.id])
  })

  test('the figures and the lists behind them: DORA of all production, failed and rework filters, commits', async () => {
    const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
    const input = validDeployment({ app: 'audited', version: 'a1' })
    const created = await client.createDeployment(input)
    await client.waitUntilRecorded(created.id, { timeoutMs: 20_000, intervalMs: 100 })
    const dora = await client.getDoraMetrics()
    expect(dora.environments).toEqual(['production'])
    const changes = await client.listDeployments({
      app: 'audited',
      changeType: 'change',
      failed: false,
    })
    expect(changes.data.map((record) => record.id)).toEqual([created.id])
    const failed = await client.listDeployments({ app: 'audited', failed: true, rework: false })
    expect(failed.data).toEqual([])
    // Its first deployment: no commit of it counts in lead time.
    expect(await client.listCommits({ production: true, app: 'audited' })).toEqual({
      data: [],
      nextCursor: null,
    })
  })

  test('an unknown id is a 404 ShiplogError', async () => {
    const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
    const error = await client
      .getDeployment('00000000-0000-7000-8000-000000000000')
      .catch((caught) => caught)
    expect(error).toBeInstanceOf(ShiplogError)
    expect(error.status).toBe(404)
  })
})

describe('retries', () => {
  test('on 429 it waits exactly the Retry-After given, with the same key, then gives up', async () => {
    // Two requests a minute: the bucket refills one token per 30 s, far slower than the test.
    const limitedKey = await live.createKey({ rateLimitPerMinute: 2 })
    const wire = recordingFetch()
    const slept: number[] = []
    const client = createShiplogClient({
      baseUrl: live.url,
      apiKey: limitedKey,
      fetch: wire.fetch,
      maxRetries: 3,
      sleep: async (ms) => void slept.push(ms),
    })
    await client.createDeployment(validDeployment({ version: 'r1' }))
    await client.createDeployment(validDeployment({ version: 'r2' }))
    expect(slept).toEqual([])

    const error = await client
      .createDeployment(validDeployment({ version: 'r3' }))
      .catch((caught) => caught)
    expect(error).toBeInstanceOf(ShiplogError)
    expect(error.status).toBe(429)
    expect(error.type).toBe('/problems/rate-limited')

    const attempts = wire.exchanges.slice(2)
    expect(attempts.map((exchange) => exchange.status)).toEqual([429, 429, 429, 429])
    const asked = attempts.slice(0, 3).map((exchange) => Number(exchange.retryAfter) * 1000)
    expect(slept).toEqual(asked)
    for (const ms of asked) {
      expect(ms).toBeGreaterThanOrEqual(1_000)
      expect(ms).toBeLessThanOrEqual(30_000)
    }
    const keys = new Set(attempts.map((exchange) => exchange.idempotencyKey))
    expect(keys.size).toBe(1)
    expect([...keys][0]).toMatch(UUID)
  })

  test('a real wait: with the quota spent, the create succeeds after about a second', async () => {
    // Sixty a minute is one token a second: spend the burst, then the next token is ~1 s away.
    const limitedKey = await live.createKey({ rateLimitPerMinute: 60 })
    const spender = createShiplogClient({ baseUrl: live.url, apiKey: limitedKey, maxRetries: 0 })
    let spent = false
    for (let request = 0; request < 100 && !spent; request++) {
      spent = await spender.listDeployments({ limit: 1 }).then(
        () => false,
        (error) => error instanceof ShiplogError && error.status === 429,
      )
    }
    expect(spent).toBe(true)

    const wire = recordingFetch()
    const slept: number[] = []
    const client = createShiplogClient({
      baseUrl: live.url,
      apiKey: limitedKey,
      fetch: wire.fetch,
      sleep: async (ms) => {
        slept.push(ms)
        await Bun.sleep(ms)
      },
    })
    const started = Date.now()
    const created = await client.createDeployment(validDeployment({ version: 'real-wait' }))
    expect(created.id).toMatch(UUID)
    expect(slept.length).toBeGreaterThanOrEqual(1)
    expect(slept.every((ms) => ms === 1_000)).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(wire.exchanges.at(0)?.status).toBe(429)
    expect(wire.exchanges.at(-1)?.status).toBe(202)
  }, 20_000)

  test('a server that never answers is a ShiplogNetworkError after the retries', async () => {
    const slept: number[] = []
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const client = createShiplogClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: key,
      maxRetries: 2,
      sleep: async (ms) => void slept.push(ms),
    })
    const error = await client.createDeployment(validDeployment()).catch((caught) => caught)
    expect(error).toBeInstanceOf(ShiplogNetworkError)
    expect(error.message).toStartWith(
      'Could not reach Shiplog (POST http://127.0.0.1:9/v1/deployments) in 3 attempts',
    )
    expect(error.message).not.toContain(key)
    expect(slept).toHaveLength(2)
  })
})
