import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Harness, startHarness, validDeployment } from './harness.ts'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

async function list(key?: string, query = '') {
  const response = await h.get(`/v1/deployments${query}`, { key })
  expect(response.status).toBe(200)
  return (await response.json()) as { data: Record<string, unknown>[]; nextCursor: string | null }
}

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

describe('recording', () => {
  test('deployedAt defaults to the time the API received the request', async () => {
    const { key } = await h.createKey({ workspace: 'clock' })
    const before = Date.now()
    expect((await h.post(validDeployment({ version: 'no-date' }), { key })).status).toBe(202)
    const after = Date.now()
    await h.drain()
    const [record] = (await list(key)).data
    const deployedAt = Date.parse(String(record?.deployedAt))
    expect(deployedAt).toBeGreaterThanOrEqual(before)
    expect(deployedAt).toBeLessThanOrEqual(after)
    expect(record?.deployedAt).toBe(record?.receivedAt)
    expect(Date.parse(String(record?.recordedAt))).toBeGreaterThanOrEqual(deployedAt)
  })

  test('a given deployedAt is kept, and every field round-trips', async () => {
    const { key } = await h.createKey({ workspace: 'roundtrip' })
    const body = validDeployment({
      repositoryFullName: 'Acme/Platform/API',
      version: 'v2026.05.01-3',
      commitHash: 'ABCDEF1234567',
      description: '  Hotfix for checkout  ',
      author: 'Ada Lovelace',
      deployedAt: '2026-05-01T14:00:00+02:00',
      monorepoPath: './services/api/',
    })
    expect((await h.post(body, { key })).status).toBe(202)
    await h.drain()
    const [record] = (await list(key)).data
    expect(record).toMatchObject({
      repositoryFullName: 'Acme/Platform/API',
      environment: 'production',
      app: 'checkout',
      version: 'v2026.05.01-3',
      commitHash: 'abcdef1234567',
      description: 'Hotfix for checkout',
      author: 'Ada Lovelace',
      deployedAt: '2026-05-01T12:00:00.000Z',
      monorepoPath: 'services/api',
    })
    expect(String(record?.id)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
  })

  test('names match case-insensitively and keep the first spelling', async () => {
    const { key } = await h.createKey({ workspace: 'names' })
    const spellings = [
      { environment: 'Production', app: 'Checkout', repositoryFullName: 'Acme/Shop' },
      { environment: 'production', app: 'checkout', repositoryFullName: 'acme/shop' },
      { environment: 'PRODUCTION', app: 'CHECKOUT', repositoryFullName: 'ACME/SHOP' },
    ]
    for (const [index, names] of spellings.entries()) {
      const response = await h.post(validDeployment({ ...names, version: `n-${index}` }), { key })
      expect(response.status).toBe(202)
    }
    await h.drain()
    const workspace = await h.sql`
      select (select count(*)::int from environments e join workspaces w on w.id = e.workspace_id where w.slug = 'names') as environments,
             (select count(*)::int from applications a join workspaces w on w.id = a.workspace_id where w.slug = 'names') as applications,
             (select count(*)::int from repositories r join workspaces w on w.id = r.workspace_id where w.slug = 'names') as repositories`
    expect(workspace[0]).toEqual({ environments: 1, applications: 1, repositories: 1 })
    const { data } = await list(key)
    expect(data).toHaveLength(3)
    for (const record of data) {
      expect(record).toMatchObject({
        environment: 'Production',
        app: 'Checkout',
        repositoryFullName: 'Acme/Shop',
      })
    }
    expect((await list(key, '?environment=pRoDuCtIoN&app=CHECKOUT')).data).toHaveLength(3)
  })

  test('the same app name in two repositories is two applications', async () => {
    const { key } = await h.createKey({ workspace: 'two-repos' })
    await h.post(validDeployment({ repositoryFullName: 'acme/a', app: 'web' }), { key })
    await h.post(validDeployment({ repositoryFullName: 'acme/b', app: 'web' }), { key })
    await h.drain()
    const [row] = await h.sql`
      select count(*)::int as count from applications a join workspaces w on w.id = a.workspace_id where w.slug = 'two-repos'`
    expect(row?.count).toBe(2)
    expect((await list(key, '?app=web')).data).toHaveLength(2)
  })

  test('the application keeps the monorepo path of its latest deployment', async () => {
    const { key } = await h.createKey({ workspace: 'monorepo' })
    const post = (monorepoPath: string | undefined, deployedAt: string) =>
      h.post(validDeployment({ monorepoPath, deployedAt, version: deployedAt }), { key })
    await post('apps/new', '2026-03-01T00:00:00Z')
    await post('apps/old', '2026-01-01T00:00:00Z')
    await h.drain()
    await post(undefined, '2026-04-01T00:00:00Z')
    await h.drain()
    const [app] = await h.sql`
      select a.monorepo_path from applications a join workspaces w on w.id = a.workspace_id where w.slug = 'monorepo'`
    expect(app?.monorepo_path).toBe('apps/new')
    const paths = (await list(key)).data.map((record) => record.monorepoPath)
    expect(paths).toEqual([null, 'apps/new', 'apps/old'])
  })
})

describe('workspace isolation', () => {
  test('a key reads only its own workspace, and equal names in two workspaces stay apart', async () => {
    const red = await h.createKey({ workspace: 'red' })
    const blue = await h.createKey({ workspace: 'blue' })
    await h.post(validDeployment({ version: 'red-1' }), { key: red.key })
    await h.post(validDeployment({ version: 'red-2' }), { key: red.key })
    await h.post(validDeployment({ version: 'blue-1' }), { key: blue.key })
    await h.drain()
    expect((await list(red.key)).data.map((record) => record.version).sort()).toEqual([
      'red-1',
      'red-2',
    ])
    expect((await list(blue.key)).data.map((record) => record.version)).toEqual(['blue-1'])
    const [row] = await h.sql`
      select count(distinct a.workspace_id)::int as workspaces from applications a
        join workspaces w on w.id = a.workspace_id where w.slug in ('red', 'blue')`
    expect(row?.workspaces).toBe(2)
  })

  test('an identical deployment in two workspaces is recorded in both', async () => {
    const one = await h.createKey({ workspace: 'twin-one' })
    const two = await h.createKey({ workspace: 'twin-two' })
    const body = validDeployment({ deployedAt: '2026-02-02T02:02:02Z' })
    await h.post(body, { key: one.key })
    await h.post(body, { key: two.key })
    await h.drain()
    expect((await list(one.key)).data).toHaveLength(1)
    expect((await list(two.key)).data).toHaveLength(1)
  })
})

describe('duplicates and Idempotency-Key', () => {
  test('the same deployment delivered twice is recorded once', async () => {
    const { key } = await h.createKey({ workspace: 'dupes' })
    const body = validDeployment({ deployedAt: '2026-06-01T10:00:00.123456Z' })
    expect((await h.post(body, { key })).status).toBe(202)
    await h.drain()
    expect((await h.post(body, { key })).status).toBe(202)
    expect((await h.post({ ...body, environment: 'PRODUCTION' }, { key })).status).toBe(202)
    expect(await h.drain()).toBe(2)
    expect((await list(key)).data).toHaveLength(1)
    expect(
      (await h.post({ ...body, deployedAt: '2026-06-01T10:00:00.123457Z' }, { key })).status,
    ).toBe(202)
    await h.drain()
    expect((await list(key)).data).toHaveLength(2)
  })

  test('a retried request without deployedAt but with the same Idempotency-Key is recorded once', async () => {
    const { key } = await h.createKey({ workspace: 'idem' })
    const headers = { 'idempotency-key': 'build-4711' }
    const first = await h.post(validDeployment(), { key, headers })
    const retry = await h.post(validDeployment(), { key, headers })
    const quoted = await h.post(validDeployment(), {
      key,
      headers: { 'idempotency-key': '"build-4711"' },
    })
    expect([first.status, retry.status, quoted.status]).toEqual([202, 202, 202])
    expect(await retry.text()).toBe('{"status":202}')
    expect(await h.drain()).toBe(1)
    expect((await list(key)).data).toHaveLength(1)
    const other = await h.post(validDeployment(), {
      key,
      headers: { 'idempotency-key': 'build-4712' },
    })
    expect(other.status).toBe(202)
    await h.drain()
    expect((await list(key)).data).toHaveLength(2)
  })

  test('the same Idempotency-Key with a different body is 422 and queues nothing', async () => {
    const { key } = await h.createKey({ workspace: 'idem-conflict' })
    const headers = { 'idempotency-key': 'release-1' }
    expect((await h.post(validDeployment({ version: '1' }), { key, headers })).status).toBe(202)
    const conflict = await h.post(validDeployment({ version: '2' }), { key, headers })
    expect(conflict.status).toBe(422)
    const body = await conflict.json()
    expect(body.errors).toEqual([
      { field: 'Idempotency-Key', message: 'was already used with a different request body' },
    ])
    expect(await h.drain()).toBe(1)
  })

  test('Idempotency-Key claims are per workspace', async () => {
    const one = await h.createKey({ workspace: 'idem-a' })
    const two = await h.createKey({ workspace: 'idem-b' })
    const headers = { 'idempotency-key': 'shared-key' }
    expect(
      (await h.post(validDeployment({ version: 'a' }), { key: one.key, headers })).status,
    ).toBe(202)
    expect(
      (await h.post(validDeployment({ version: 'b' }), { key: two.key, headers })).status,
    ).toBe(202)
    expect(await h.drain()).toBe(2)
  })

  test('repeats within one group commit are recognised too', async () => {
    const { key } = await h.createKey({ workspace: 'idem-burst' })
    const headers = { 'idempotency-key': 'burst' }
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => h.post(validDeployment(), { key, headers })),
    )
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(202))
    expect(await h.drain()).toBe(1)
  })

  test('an Idempotency-Key claim expires after 24 hours', async () => {
    const { key } = await h.createKey({ workspace: 'idem-expiry' })
    const headers = { 'idempotency-key': 'nightly' }
    await h.post(validDeployment({ version: 'day-1' }), { key, headers })
    await h.sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'nightly'`
    expect((await h.post(validDeployment({ version: 'day-2' }), { key, headers })).status).toBe(202)
    expect(await h.drain()).toBe(2)
  })

  test.each([['a'.repeat(256)], ['with space'], ['tab\there'], ['"unterminated']])(
    'an invalid Idempotency-Key (%#) is 422 naming the header',
    async (value) => {
      const response = await h.post(validDeployment(), { headers: { 'idempotency-key': value } })
      expect(response.status).toBe(422)
      const body = await response.json()
      expect(body.errors.map((error: { field: string }) => error.field)).toContain(
        'Idempotency-Key',
      )
    },
  )
})

describe('when the queue cannot commit', () => {
  test('the answer is 503 with Retry-After, never 202, and nothing is recorded', async () => {
    const broken = await startHarness()
    try {
      const { key } = await broken.createKey({ workspace: 'outage' })
      // Warm the key and rate-limit caches, then make every queue commit fail.
      expect((await broken.post(validDeployment({ version: 'warm' }), { key })).status).toBe(202)
      await broken.sql`
        create function fail_inserts() returns trigger language plpgsql as $$
        begin raise exception 'simulated outage'; end $$`
      await broken.sql`
        create trigger outage before insert on idempotency_keys for each row execute function fail_inserts()`
      const statuses = await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          broken.post(validDeployment({ version: `lost-${index}` }), {
            key,
            headers: { 'idempotency-key': `outage-${index}` },
          }),
        ),
      )
      for (const response of statuses) {
        expect(response.status).toBe(503)
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
        expect(response.headers.get('content-type')).toBe('application/problem+json')
      }
      expect(await broken.drain()).toBe(1)
      expect(await broken.deploymentCount()).toBe(1)
    } finally {
      await broken.close()
    }
  })
})

describe('slow bodies', () => {
  test('a body that trickles in slower than BODY_TIMEOUT_MS gets 408, and nothing is queued', async () => {
    const slow = await startHarness({ BODY_TIMEOUT_MS: '300' })
    try {
      const encoder = new TextEncoder()
      let timer: ReturnType<typeof setInterval> | undefined
      const trickle = new ReadableStream<Uint8Array>({
        start(controller) {
          timer = setInterval(() => controller.enqueue(encoder.encode(' ')), 100)
        },
        cancel() {
          clearInterval(timer)
        },
      })
      const startedAt = Date.now()
      const response = await slow.post(undefined, {
        headers: { 'content-type': 'application/json' },
        rawBody: trickle,
      })
      clearInterval(timer)
      expect(response.status).toBe(408)
      expect(response.headers.get('content-type')).toBe('application/problem+json')
      expect(Date.now() - startedAt).toBeLessThan(2_000)
      expect(await slow.drain()).toBe(0)
    } finally {
      await slow.close()
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
