import { afterAll, beforeAll, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { postDeployment, type Sent } from '../harness/driver.ts'
import { expectEachAcceptedOnce, reconcile } from '../harness/ledger.ts'
import { trickle } from '../harness/raw-http.ts'
import { recordScenario } from '../harness/results.ts'
import { Stack } from '../harness/stack.ts'

let stack: Stack
beforeAll(async () => {
  stack = await Stack.create()
})
afterAll(() => stack?.close())

interface Attack {
  name: string
  statuses: Record<string, number>
  slowestMs: number
}

test('hostile input gets a fast 4xx, memory stays bounded, and a well-behaved client is served throughout', async () => {
  const api = await stack.startApi({
    BODY_TIMEOUT_MS: '3000',
    IDLE_TIMEOUT_SECONDS: '5',
    UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '60',
  })
  stack.startWorker()
  const url = `${api.base}/v1/deployments`
  const { hostname, port } = new URL(api.base)
  const rssBefore = api.process.rssKiB()
  let rssPeak = rssBefore
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, api.process.rssKiB())
  }, 50)

  // A well-behaved pipeline keeps posting, every 20 ms, for the whole attack.
  const wellBehaved: Sent[] = []
  let attacking = true
  const bystander = (async () => {
    while (attacking) {
      wellBehaved.push(await postDeployment(url, stack.key, `bystander-${wellBehaved.length}`))
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()

  const attacks: Attack[] = []
  async function attack(
    name: string,
    requests: (() => Promise<{ status: number; ms: number }>)[],
    concurrency = 8,
  ) {
    const results: { status: number; ms: number }[] = []
    const queue = [...requests]
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) results.push(await next())
      }),
    )
    const statuses: Record<string, number> = {}
    for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1
    attacks.push({ name, statuses, slowestMs: Math.max(...results.map((result) => result.ms)) })
    return statuses
  }
  const send = (init: RequestInit & { key?: string | null }) => async () => {
    const startedAt = Date.now()
    const headers = new Headers(init.headers)
    if (init.key !== null) headers.set('authorization', `Bearer ${init.key ?? stack.key}`)
    try {
      const response = await fetch(url, { method: 'POST', ...init, headers })
      await response.arrayBuffer()
      return { status: response.status, ms: Date.now() - startedAt }
    } catch {
      return { status: 0, ms: Date.now() - startedAt }
    }
  }
  const json = { 'content-type': 'application/json' }
  const tenMegabytes = 'x'.repeat(10 * 1024 * 1024)
  const times = <T>(count: number, make: () => T) => Array.from({ length: count }, make)

  expect(
    await attack(
      '10 MB body, declared length',
      times(5, () => send({ headers: json, body: tenMegabytes })),
      2,
    ),
  ).toEqual({ 413: 5 })
  expect(
    await attack(
      '10 MB body, chunked',
      times(5, () =>
        send({
          headers: json,
          body: new Blob([tenMegabytes]).stream(),
          // @ts-expect-error Bun needs this to stream a request body
          duplex: 'half',
        }),
      ),
      2,
    ),
  ).toEqual({ 413: 5 })
  expect(
    await attack(
      '10 MB body without a key',
      times(3, () => send({ key: null, headers: json, body: tenMegabytes })),
      1,
    ),
  ).toEqual({ 401: 3 })
  expect(
    await attack(
      'JSON nested 100,000 deep',
      times(3, () => send({ headers: json, body: '['.repeat(100_000) + ']'.repeat(100_000) })),
      1,
    ),
  ).toEqual({ 413: 3 })
  expect(
    await attack(
      'JSON nested 32,000 deep (inside 64 KiB)',
      times(3, () => send({ headers: json, body: '['.repeat(32_000) + ']'.repeat(32_000) })),
      1,
    ),
  ).toEqual({ 422: 3 })

  const slowBody = await trickle({
    host: hostname,
    port: Number(port),
    head: `POST /v1/deployments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stack.key}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`,
    body: '{'.padEnd(200, ' '),
    intervalMs: 1_000,
    timeoutMs: 20_000,
  })
  attacks.push({
    name: 'body sent at one byte a second',
    statuses: { [slowBody.status]: 1 },
    slowestMs: slowBody.ms,
  })
  const slowHead = await trickle({
    host: hostname,
    port: Number(port),
    head: `POST /v1/deployments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stack.key}\r\nX-Padding: ${'p'.repeat(200)}`,
    body: '',
    intervalMs: 1_000,
    timeoutMs: 30_000,
    trickleHead: true,
  })
  attacks.push({
    name: 'headers sent at one byte a second',
    statuses: { [slowHead.status === 0 ? 'closed' : slowHead.status]: 1 },
    slowestMs: slowHead.ms,
  })

  const guessingStartedAt = Date.now()
  const guessed = await attack(
    '10,000 requests with wrong keys from one address',
    Array.from({ length: 10_000 }, (_, index) =>
      send({
        key: `shiplog_${String(index).padStart(43, 'k')}`,
        headers: json,
        body: JSON.stringify(validDeployment()),
      }),
    ),
    32,
  )
  const guessingSeconds = (Date.now() - guessingStartedAt) / 1000
  const metacharacters = [
    "'; drop table deployments; --",
    '$(rm -rf /) `reboot` && shutdown -h now | cat /etc/passwd',
    '" OR 1=1 --',
    '%00%27 <script>alert(1)</script>',
  ]
  const accepted: Sent[] = []
  for (const [index, value] of metacharacters.entries()) {
    const version = `meta-${index}`
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, ...json },
      body: JSON.stringify(
        validDeployment({ version, description: value, author: value, app: value.slice(0, 40) }),
      ),
    })
    accepted.push({ version, status: response.status, retryAfter: null, ms: 0 })
  }
  const oddities: [string, string, number][] = [
    ['NUL', 'a\u0000b', 422],
    ['lone high surrogate', '"a\\ud800b"', 422],
    ['lone low surrogate', '"\\udc00"', 422],
    // Names refuse invisible and bidi code points: look-alike names (issue 30).
    ['right-to-left mark', 'release\u200f', 422],
    ['right-to-left override', 'check\u202eout', 422],
    ['zero-width space', 'checkout\u200b', 422],
    ['zero-width joiner family emoji', '👨\u200d👩\u200d👧', 422],
    ['family emoji, one code point each', '👨👩👧', 202],
    ['decomposed é, stored composed', 'cafe\u0301', 202],
    ['255 four-byte characters', '𝄞'.repeat(255), 202],
    ['256 four-byte characters', '𝄞'.repeat(256), 422],
  ]
  const oddityStatuses: Record<string, number> = {}
  for (const [name, value, expected] of oddities) {
    const version = `odd-${name.replace(/\W+/g, '-')}`
    const raw = value.startsWith('"') ? value : JSON.stringify(value)
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, ...json },
      body: `{"repositoryFullName":"acme/shop","environment":"production","version":"${version}","commitHash":"abcdef1","app":${raw}}`,
    })
    oddityStatuses[name] = response.status
    expect({ name, status: response.status }).toEqual({ name, status: expected })
    if (response.status === 202) accepted.push({ version, status: 202, retryAfter: null, ms: 0 })
  }

  attacking = false
  await bystander
  clearInterval(sampler)
  const sent = [...wellBehaved, ...accepted]
  await stack.untilDrained(sent.filter((request) => request.status === 202).length)
  const ledger = await reconcile(stack.sql, sent)
  const stored = await stack.sql<{ description: string }[]>`
    select description from deployments where version like 'meta-%' order by version`
  const composed = await stack.sql<{ name: string }[]>`
    select name from applications where name_key like 'caf%' order by name`
  const latencies = wellBehaved.map((request) => request.ms).sort((a, b) => a - b)
  const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0

  expect(slowBody.status).toBe(408)
  expect(slowBody.ms).toBeLessThan(5_000)
  expect(slowHead.status === 0 || slowHead.status === 408).toBe(true)
  // Each byte resets the idle timer; what closes it is the server's own bound on unfinished heads.
  expect(slowHead.ms).toBeLessThan(20_000)
  expect(Object.keys(guessed).sort()).toEqual(['401', '429'])
  // 60 a minute per address: a full bucket, plus what refills while the attack lasts.
  expect(guessed[401]).toBeLessThanOrEqual(60 + Math.ceil(guessingSeconds) + 1)
  expect(stored.map((row) => row.description)).toEqual(metacharacters)
  expect(composed.map((row) => row.name)).toEqual(['caf\u00e9'])
  expect(wellBehaved.every((request) => request.status === 202)).toBe(true)
  expect(p99).toBeLessThan(500)
  expectEachAcceptedOnce(ledger)
  expect(rssPeak - rssBefore).toBeLessThan(200 * 1024)
  expect(api.process.child.exitCode).toBeNull()
  expect(api.process.logged('unexpected error')).toEqual([])

  const figures: Record<string, string | number> = {}
  for (const { name, statuses, slowestMs } of attacks) {
    figures[name] = `${Object.entries(statuses)
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ')}; slowest answer ${slowestMs} ms`
  }
  figures['wrong-key attack duration'] = `${guessingSeconds.toFixed(1)} s`
  figures['SQL and shell metacharacters'] = `${metacharacters.length} × 202, stored byte for byte`
  figures['Unicode oddities'] = Object.entries(oddityStatuses)
    .map(([name, status]) => `${name}: ${status}`)
    .join('; ')
  figures['well-behaved client during the attack'] = `${wellBehaved.length} × 202, p99 ${p99} ms`
  figures['API memory (RSS) before / peak'] =
    `${Math.round(rssBefore / 1024)} MB / ${Math.round(rssPeak / 1024)} MB`
  figures.lost = ledger.lost
  await recordScenario({
    id: '6-hostile-input',
    title: 'hostile input, with a well-behaved client posting throughout',
    passed: true,
    figures,
  })
}, 180_000)
