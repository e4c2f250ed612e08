import { afterEach, expect, test } from 'bun:test'
import {
  createShiplogClient,
  type ShiplogClientOptions,
  ShiplogError,
  ShiplogNetworkError,
} from '../src/index.ts'
import { describeRetry } from '../src/retry-notice.ts'
import { type FailingOver, failingOver, repeated } from './failing-over.ts'

// The client through an outage of a real local server (503s, cut and refused connections), on a
// clock of its own: `sleep` moves it rather than waiting, so two minutes of budget take
// milliseconds.

const DEPLOYMENT = {
  repositoryFullName: 'acme/shop',
  environment: 'production',
  app: 'checkout',
  version: '1.2.3',
  commitHash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
}

/** The stand-in of the running test, stopped after it. */
let shiplog: FailingOver | undefined
afterEach(async () => {
  await shiplog?.stop()
  shiplog = undefined
})

/** A client on a fake clock, each retry told as the CLI prints it. */
function clientOf(url: string, options: Partial<ShiplogClientOptions> = {}) {
  let now = Date.parse('2026-05-01T12:00:00Z')
  const slept: number[] = []
  const lines: string[] = []
  const client = createShiplogClient({
    baseUrl: url,
    apiKey: 'shiplog_test',
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms)
      now += ms
    },
    onRetry: (retry) => lines.push(describeRetry(retry)),
    ...options,
  })
  return { client, slept, lines, elapsed: () => slept.reduce((sum, ms) => sum + ms, 0) }
}

test('through 503s with and without Retry-After and a cut connection, one key and one body are accepted once', async () => {
  shiplog = await failingOver([
    { answer: 503, retryAfter: '2' },
    { answer: 503 },
    { answer: 'drop' },
  ])
  const { client, lines } = clientOf(shiplog.url)
  const created = await client.createDeployment(DEPLOYMENT)

  expect(shiplog.received).toHaveLength(4)
  expect(new Set(shiplog.received.map((request) => request.idempotencyKey))).toEqual(
    new Set([created.idempotencyKey]),
  )
  expect(new Set(shiplog.received.map((request) => request.body)).size).toBe(1)
  expect(JSON.parse(shiplog.received[0]?.body ?? '')).toEqual(DEPLOYMENT)
  expect(created.id).toBe(shiplog.ids.get(created.idempotencyKey) ?? '')

  expect(lines[0]).toBe(
    'Shiplog answered 503 Service Unavailable; retrying in 2 s (attempt 2, giving up after 120 s)',
  )
  // Without Retry-After, the jittered backoff: half to all of 1 s, then of 2 s.
  expect(lines[1]).toMatch(
    /^Shiplog answered 503 Service Unavailable; retrying in (0\.[5-9]|1) s \(attempt 3, giving up after 120 s\)$/,
  )
  expect(lines[2]).toMatch(
    /^Could not reach Shiplog \(ECONNRESET\); retrying in (1(\.\d)?|2) s \(attempt 4, giving up after 120 s\)$/,
  )
  expect(lines).toHaveLength(3)
})

test('a load balancer refusing connections for 40 s is waited out, each retry told', async () => {
  const down = await failingOver([], { refusing: true })
  shiplog = down
  let now = 0
  const { client, lines } = clientOf(down.url, {
    now: () => now,
    sleep: async (ms) => {
      now += ms
      if (now >= 40_000) await down.start()
    },
  })
  const created = await client.createDeployment(DEPLOYMENT)
  expect(now).toBeGreaterThanOrEqual(40_000)
  expect(now).toBeLessThan(120_000)
  expect(lines.length).toBeGreaterThanOrEqual(5)
  for (const line of lines) {
    expect(line).toMatch(
      /^Could not reach Shiplog \(ECONNREFUSED\); retrying in [\d.]+ s \(attempt \d+, giving up after 120 s\)$/,
    )
  }
  // Only the attempt after the outage reached it.
  expect(shiplog.received.map((request) => request.idempotencyKey)).toEqual([
    created.idempotencyKey,
  ])
})

test('with a short budget it gives up on time: the last wait is cut short, the error says how long it tried', async () => {
  shiplog = await failingOver(repeated({ answer: 503, retryAfter: '2' }))
  const { client, slept, lines } = clientOf(shiplog.url, { retryForMs: 5_000 })
  const error = await client.createDeployment(DEPLOYMENT).catch((caught) => caught)

  expect(error).toBeInstanceOf(ShiplogError)
  expect(error.status).toBe(503)
  expect(error.attempts).toBe(4)
  expect(error.elapsedMs).toBe(5_000)
  expect(error.message).toBe(
    '503 Service Unavailable: Nothing was accepted: retry after Retry-After. (after 4 attempts over 5 s)',
  )
  // Never a wait past the budget's end: the third is cut to the second left.
  expect(slept).toEqual([2_000, 2_000, 1_000])
  expect(lines.at(-1)).toBe(
    'Shiplog answered 503 Service Unavailable; retrying in 1 s (attempt 4, giving up after 5 s)',
  )
  expect(new Set(shiplog.received.map((request) => request.idempotencyKey)).size).toBe(1)
})

test('unreachable for the whole budget: a ShiplogNetworkError naming the attempts and the time', async () => {
  shiplog = await failingOver([], { refusing: true })
  const { client, elapsed } = clientOf(shiplog.url, { retryForMs: 3_000 })
  const error = await client.createDeployment(DEPLOYMENT).catch((caught) => caught)
  expect(error).toBeInstanceOf(ShiplogNetworkError)
  expect(elapsed()).toBe(3_000)
  expect(error.message).toMatch(
    new RegExp(
      `^Could not reach Shiplog \\(POST ${shiplog.url}/v1/deployments\\) in ${error.attempts} attempts over 3 s: `,
    ),
  )
  expect(error.attempts).toBeGreaterThan(2)
})

test('a maxRetries a library user set still bounds the count, whichever limit comes first', async () => {
  shiplog = await failingOver(repeated({ answer: 429, retryAfter: '1' }))
  const { client, lines } = clientOf(shiplog.url, { maxRetries: 1 })
  const error = await client.listDeployments().catch((caught) => caught)
  expect(error).toBeInstanceOf(ShiplogError)
  expect(error.status).toBe(429)
  expect(error.attempts).toBe(2)
  expect(lines).toEqual([
    'Shiplog answered 429 Too Many Requests; retrying in 1 s (attempt 2 of 2, giving up after 120 s)',
  ])

  const unbudgeted = clientOf(shiplog.url, { maxRetries: 2, retryForMs: Number.POSITIVE_INFINITY })
  await unbudgeted.client.listDeployments().catch(() => undefined)
  expect(unbudgeted.lines.at(-1)).toBe(
    'Shiplog answered 429 Too Many Requests; retrying in 1 s (attempt 3 of 3)',
  )
  expect(() =>
    createShiplogClient({
      baseUrl: 'https://shiplog.example.com',
      apiKey: 'k',
      retryForMs: Number.POSITIVE_INFINITY,
    }),
  ).toThrow('retryForMs: Infinity needs a maxRetries')
})

test("waiting for a receipt, a read retrying through an outage stops at the wait's deadline", async () => {
  shiplog = await failingOver(repeated({ answer: 503, retryAfter: '1' }))
  const { client, elapsed } = clientOf(shiplog.url)
  const error = await client
    .waitUntilRecorded('0190f3c4-0000-7000-8000-000000000001', { timeoutMs: 10_000 })
    .catch((caught) => caught)
  expect(error).toBeInstanceOf(ShiplogError)
  expect(error.status).toBe(503)
  expect(elapsed()).toBe(10_000)
})

test('"retry now" (Retry-After: 0) gets a backoff, not requests back to back', async () => {
  shiplog = await failingOver(repeated({ answer: 503, retryAfter: '0' }, 3))
  const { client, slept } = clientOf(shiplog.url)
  await client.createDeployment(DEPLOYMENT)
  expect(slept).toHaveLength(3)
  for (const ms of slept) expect(ms).toBeGreaterThanOrEqual(250)
})
