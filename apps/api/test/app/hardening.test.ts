import { beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { generateApiKey } from '@shiplog/db/api-key'
import { encodeCursor } from '@shiplog/schema'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile, withHarness } from '../support/harness.ts'

// One regression test per finding of the hardening review (docs/reliability.md lists them), each
// through the real HTTP app. Findings 6 (metrics) and 9 (stale rows after a cancelled query) have
// theirs in plugins/prometheus/metrics.test.ts and plugins/auth/stale-rows.test.ts.

const h = harnessPerFile({
  STATEMENT_TIMEOUT_MS: '300',
  BODY_TIMEOUT_MS: '1400',
  REQUEST_TIMEOUT_MS: '1500',
  IDLE_TIMEOUT_SECONDS: '1',
})
let key: string
beforeAll(async () => {
  key = (await h.createKey({ workspace: 'hardening', rateLimitPerMinute: 1_000_000 })).key
})

const unexpectedErrors = () => h.logs.filter((line) => line.msg === 'unexpected error')

async function problemOf(path: string, withKey = key) {
  const response = await h.get(path, { key: withKey })
  return { status: response.status, body: await response.json() }
}

describe('1. a quoted since cannot widen the frequency window', () => {
  test('since wrapped in double quotes is a 422 naming since, not thousands of buckets', async () => {
    const { status, body } = await problemOf(
      '/v1/metrics/deployment-frequency?environment=production&since=%222000-01-01T00:00:00Z%22',
    )
    expect(status).toBe(422)
    expect(body.errors).toEqual([
      { field: 'since', message: expect.stringContaining('RFC 3339 date-time') },
    ])
  })
})

describe('2. every 202 is recorded', () => {
  test('a 200-digit fraction with an offset is stored as the instant it names', async () => {
    const deployedAt = `2024-01-01T00:00:00.${'9'.repeat(200)}+02:00`
    const response = await h.post(validDeployment({ app: 'long-fraction', deployedAt }), { key })
    expect(response.status).toBe(202)
    await h.drain()
    const receipt = await problemOf(response.headers.get('location') as string)
    expect(receipt.body).toMatchObject({
      status: 'recorded',
      deployedAt: '2023-12-31T22:00:01.000Z',
    })
  })
})

describe('3. hostile read input is a 4xx, never a 500', () => {
  const id = '01a201b7-0f85-709f-a9e9-a1a8d0bc5cf4'
  const forged = (micros: string) => Buffer.from(`${micros}.${id}`).toString('base64url')
  test.each([
    '/v1/deployments?app=a%00b',
    '/v1/deployments?environment=%00',
    '/v1/deployments?repository=acme/%00',
    '/v1/deployments?version=1%00',
    '/v1/applications?repository=%00',
    '/v1/state?repository=a%00',
    '/v1/metrics/deployment-frequency?environment=prod%00',
    '/v1/deployments?since=2024-02-30T00:00:00Z',
    '/v1/deployments?since=0000-01-01T00:00:00Z',
    '/v1/deployments?until=%2B002024-01-01T00:00:00Z',
    `/v1/deployments?since=${encodeURIComponent(new Date(0).toString())}`,
    '/v1/metrics/deployment-frequency?environment=production&since=2024-02-30T00:00:00Z',
    `/v1/deployments/urn:uuid:${id}`,
    `/v1/deployments/{${id}}`,
    `/v1/deployments?cursor=${forged('999999999999999999')}`,
    `/v1/deployments?cursor=${forged('-9999999999999999999')}`,
    `/v1/deployments?status=queued&cursor=${forged('999999999999999999')}`,
    '/v1/deployments?limit=1&limit=2',
  ])('%s is 422', async (path) => {
    const { status, body } = await problemOf(path)
    expect(status).toBe(422)
    expect(body.type).toBe('/problems/validation-failed')
    expect(unexpectedErrors()).toEqual([])
  })

  test.each([
    `/v1/deployments?since=2024-01-01T00:00:00.${'1'.repeat(150)}Z`,
    '/v1/metrics/deployment-frequency?environment=production&until=0001-01-02T00:00:00Z',
    '/v1/metrics/deployment-frequency?environment=production&bucket=week&until=0001-01-02T00:00:00Z',
    '/v1/metrics/deployment-frequency?environment=production&until=9999-12-31T23:59:59Z',
  ])('%s is a valid question and gets 200', async (path) => {
    const { status } = await problemOf(path)
    expect(status).toBe(200)
    expect(unexpectedErrors()).toEqual([])
  })

  test('a cursor this API returned still pages', async () => {
    const cursor = encodeCursor({ deployedAtMicros: 1_700_000_000_000_000n, id })
    expect((await problemOf(`/v1/deployments?cursor=${cursor}`)).status).toBe(200)
  })
})

describe('4. every request gets an answer', () => {
  test('a read stuck behind a lock ends as a 503 problem on the wire, not a dropped connection', async () => {
    const server = await h.serve()
    const locked = Promise.withResolvers<void>()
    const release = Promise.withResolvers<void>()
    const holder = h.sql.begin(async (tx) => {
      await tx`lock table deployments in access exclusive mode`
      locked.resolve()
      await release.promise
    })
    await locked.promise
    try {
      const response = await fetch(`${server.base}/v1/deployments`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(response.status).toBe(503)
      expect(response.headers.get('content-type')).toBe('application/problem+json')
      expect(response.headers.get('retry-after')).toBe('5')
      expect((await response.json()).type).toBe('/problems/timeout')
    } finally {
      release.resolve()
      await holder
      await server.stop()
    }
    expect(unexpectedErrors()).toEqual([])
  })

  test('a body shorter than its Content-Length gets a 408, even with the idle timeout as short', async () => {
    const server = await h.serve()
    try {
      const reply = await new Promise<string>((resolve) => {
        let received = ''
        const socket = connect(server.port, '127.0.0.1', () => {
          socket.write(
            'POST /v1/deployments HTTP/1.1\r\nHost: shiplog.test\r\n' +
              `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
              'Content-Length: 100\r\n\r\n{"app":',
          )
        })
        socket.on('data', (chunk) => {
          received += chunk
        })
        socket.on('close', () => resolve(received))
        socket.on('error', () => resolve(received))
      })
      expect(reply).toStartWith('HTTP/1.1 408')
      expect(reply).toContain('/problems/body-timeout')
    } finally {
      await server.stop()
    }
  })
})

describe('5. a valid key is never refused for other clients’ bad keys', () => {
  test('after a flood of bad keys from one address, a valid key not used lately still gets in; guesses get 429', async () => {
    const unused = (await h.createKey({ workspace: 'nat' })).key
    const statuses: number[] = []
    for (let i = 0; i < 70; i++) {
      const bad = i % 2 === 0 ? generateApiKey() : 'not-a-key'
      statuses.push((await h.get('/v1/applications', { key: bad })).status)
    }
    expect(statuses).toContain(429)
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([])

    expect((await h.get('/v1/applications', { key: unused })).status).toBe(200)
    // Still over budget: a guess is refused without a lookup, so guessing stays bounded.
    expect((await h.get('/v1/applications', { key: generateApiKey() })).status).toBe(429)
  })
})

describe('7. messages say what the client can do', () => {
  test('the 401 for a bad key points at the key sent, not at an operator command', async () => {
    await withHarness({}, async (other) => {
      const response = await other.get('/v1/applications', { key: generateApiKey() })
      expect(response.status).toBe(401)
      const { detail } = await response.json()
      expect(detail).not.toContain('bun run')
      expect(detail).toContain('whole key')
      expect(detail).toContain('ask whoever runs Shiplog')
    })
  })
})

describe('8. queued and failed deployments page in SQL like recorded ones', () => {
  test('queued deployments sort by deployedAt to the microsecond and page without gaps or repeats', async () => {
    // One millisecond apart in microseconds only, newest sent first: ids ascend as they are
    // assigned, so an order that ignored microseconds would come out reversed.
    for (let micro = 1; micro <= 5; micro++) {
      const response = await h.post(
        validDeployment({
          app: 'backlog',
          version: `q${micro}`,
          deployedAt: `2025-06-01T00:00:00.00000${6 - micro}Z`,
        }),
        { key },
      )
      expect(response.status).toBe(202)
    }
    const seen: { version: string; deployedAt: string }[] = []
    let path = '/v1/deployments?status=queued&app=BACKLOG&limit=2'
    for (let page = 0; page < 5; page++) {
      const { status, body } = await problemOf(path)
      expect(status).toBe(200)
      seen.push(...body.data.map((d: { version: string; deployedAt: string }) => d))
      if (body.nextCursor === null) break
      path = `/v1/deployments?status=queued&app=BACKLOG&limit=2&cursor=${body.nextCursor}`
    }
    expect(seen.map((d) => d.version)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5'])
    expect(seen[0]?.deployedAt).toBe('2025-06-01T00:00:00.000005Z')
    await h.drain()
  })
})
