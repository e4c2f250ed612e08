import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { answersOk, randomPort, waitFor } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { loadApiEnv } from '../../../src/env.ts'
import { wireApi } from '../../../src/wiring.ts'
import { type Harness, startHarness } from '../../support/harness.ts'
import { sample, sampleOf } from '../../support/prometheus.ts'

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url))
const port = randomPort

let h: Harness
const processes: ChildProcess[] = []
/** The API's public listener (PORT) and its metrics listener (METRICS_PORT). */
let api = ''
let apiMetrics = ''
let worker = ''

function start(entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn('bun', [entry], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: h.databaseUrl, ...env },
    stdio: 'ignore',
  })
  processes.push(child)
  return child
}

beforeAll(async () => {
  h = await startHarness()
  const [apiPort, metricsPort, workerPort] = [port(), port(), port()]
  api = `http://127.0.0.1:${apiPort}`
  apiMetrics = `http://127.0.0.1:${metricsPort}`
  worker = `http://127.0.0.1:${workerPort}`
  start('apps/api/src/main.ts', {
    PORT: String(apiPort),
    METRICS_PORT: String(metricsPort),
    LOG_REQUESTS: 'false',
  })
  start('apps/worker/src/main.ts', {
    WORKER_PORT: String(workerPort),
    WORKER_POLL_INTERVAL_MS: '50',
  })
  await waitFor(() => answersOk(`${api}/readyz`), 'the API to be ready', 20_000)
  await waitFor(() => answersOk(`${apiMetrics}/metrics`), 'the API metrics listener', 20_000)
  await waitFor(() => answersOk(`${worker}/readyz`), 'the worker to be ready', 20_000)
}, 60_000)

afterAll(async () => {
  await Promise.all(
    processes.map((child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      return exited
    }),
  )
  await h?.close()
})

test('GET /metrics on the public port is a 404 problem; METRICS_PORT serves Prometheus text', async () => {
  const outside = await fetch(`${api}/metrics`)
  expect(outside.status).toBe(404)
  expect(outside.headers.get('content-type')).toBe('application/problem+json')
  expect(await outside.json()).toMatchObject({ type: '/problems/not-found', status: 404 })

  const scrape = await fetch(`${apiMetrics}/metrics`)
  expect(scrape.status).toBe(200)
  expect(scrape.headers.get('content-type')).toStartWith('text/plain; version=0.0.4')
  const text = await scrape.text()
  expect(text).toContain('# TYPE shiplog_http_requests_total counter')
  expect(text).toContain('shiplog_api_process_resident_memory_bytes')
  // The metrics listener serves metrics only: the API's routes are not reachable through it.
  expect((await fetch(`${apiMetrics}/v1/deployments`)).status).toBe(404)
  expect((await fetch(`${apiMetrics}/readyz`)).status).toBe(404)
})

test('shiplog_http_requests_total counts each answer under the status actually sent', async () => {
  const { key } = await h.createKey({ workspace: 'statuses' })
  const post = (body: string, bearer = key) =>
    fetch(`${api}/v1/deployments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body,
    })
  const deployments = { method: 'POST', route: '/v1/deployments' }
  const cases: [string, () => Promise<Response>, Record<string, string>][] = [
    ['an unknown path', () => fetch(`${api}/no-such-path`), { method: 'GET', route: 'unmatched' }],
    ['a probe', () => fetch(`${api}/healthz`), { method: 'GET', route: '/healthz' }],
    ['a bad key', () => post('{}', `shiplog_${'x'.repeat(43)}`), deployments],
    ['a body over BODY_MAX_BYTES', () => post(`"${'x'.repeat(70_000)}"`), deployments],
    ['a bad body', () => post('{"nonsense":true}'), deployments],
    [
      'a valid deployment',
      () => post(JSON.stringify(validDeployment({ version: 's1' }))),
      deployments,
    ],
  ]
  const expected = [404, 200, 401, 413, 422, 202]
  const count = (labels: Record<string, string>) =>
    sample(apiMetrics, 'shiplog_http_requests_total', labels)
  const unmatchedAs200 = { method: 'GET', route: 'unmatched', status: '200' }
  const before = {
    unmatchedAs200: await count(unmatchedAs200),
    each: await Promise.all(
      cases.map(([, , labels], index) => count({ ...labels, status: String(expected[index]) })),
    ),
  }

  const sent: number[] = []
  for (const [, send] of cases) sent.push((await send()).status)
  expect(sent).toEqual(expected)

  const after = await Promise.all(
    cases.map(([, , labels], index) => count({ ...labels, status: String(expected[index]) })),
  )
  expect(Object.fromEntries(cases.map(([name], index) => [name, after[index]]))).toEqual(
    Object.fromEntries(cases.map(([name], index) => [name, (before.each[index] ?? 0) + 1])),
  )
  expect(await count(unmatchedAs200)).toBe(before.unmatchedAs200)
}, 30_000)

test('the request log and the counter record an unknown path as 404 in-process too', async () => {
  const response = await h.get('/no-such-path-for-the-log')
  expect(response.status).toBe(404)
  const line = async () =>
    h.logs.find((entry) => entry.msg === 'request' && entry.path === '/no-such-path-for-the-log')
  await waitFor(async () => (await line()) !== undefined, 'the request log line')
  expect(await line()).toMatchObject({ method: 'GET', status: 404 })
  const text = await h.api.metrics.registry.metrics()
  expect(sampleOf(text, 'shiplog_http_requests_total', { route: 'unmatched', status: '404' })).toBe(
    1,
  )
  expect(sampleOf(text, 'shiplog_http_requests_total', { route: 'unmatched', status: '200' })).toBe(
    0,
  )
})

test('a 503 for an unreachable database is logged and counted as 503 (Elysia alone says 500)', async () => {
  const logs: Record<string, unknown>[] = []
  // Nothing listens on port 1: the key lookup fails to connect, which the API answers with 503.
  const offline = wireApi(
    loadApiEnv({ DATABASE_URL: 'postgres://shiplog@127.0.0.1:1/shiplog' }),
    (line) => void logs.push(line),
  )
  try {
    const response = await offline.app.handle(
      new Request('http://shiplog.test/v1/applications', {
        headers: { authorization: `Bearer shiplog_${'a'.repeat(43)}` },
      }),
    )
    expect(response.status).toBe(503)
    const line = () => logs.find((entry) => entry.msg === 'request')
    await waitFor(async () => line() !== undefined, 'the request log line')
    expect(line()).toMatchObject({ path: '/v1/applications', status: 503 })
    const text = await offline.metrics.registry.metrics()
    const labels = { method: 'GET', route: '/v1/applications' }
    expect(sampleOf(text, 'shiplog_http_requests_total', { ...labels, status: '503' })).toBe(1)
    expect(sampleOf(text, 'shiplog_http_requests_total', labels)).toBe(1)
  } finally {
    await offline.shutdown(async () => {})
  }
})

test('the API and worker metrics show the counters moving after traffic', async () => {
  const { key } = await h.createKey({ workspace: 'metrics', rateLimitPerMinute: 3 })
  const route = { method: 'POST', route: '/v1/deployments' }
  const before = {
    accepted: await sample(apiMetrics, 'shiplog_http_requests_total', { ...route, status: '202' }),
    invalid: await sample(apiMetrics, 'shiplog_http_requests_total', { ...route, status: '422' }),
    limited: await sample(apiMetrics, 'shiplog_http_requests_total', { ...route, status: '429' }),
    limitedKeys: await sample(apiMetrics, 'shiplog_rate_limited_total', { limit: 'key' }),
    commits: await sample(apiMetrics, 'shiplog_enqueue_commits_total', { outcome: 'ok' }),
    recorded: await sample(worker, 'shiplog_jobs_recorded_total'),
  }
  const post = (body: unknown) =>
    fetch(`${api}/v1/deployments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  expect((await post(validDeployment({ version: 'm1' }))).status).toBe(202)
  expect((await post(validDeployment({ version: 'm2' }))).status).toBe(202)
  expect((await post({ nonsense: true })).status).toBe(422)
  expect((await post(validDeployment({ version: 'm3' }))).status).toBe(429)

  await waitFor(
    async () => (await sample(worker, 'shiplog_jobs_recorded_total')) >= before.recorded + 2,
    'the worker to record both',
  )
  expect(await sample(apiMetrics, 'shiplog_http_requests_total', { ...route, status: '202' })).toBe(
    before.accepted + 2,
  )
  expect(await sample(apiMetrics, 'shiplog_http_requests_total', { ...route, status: '422' })).toBe(
    before.invalid + 1,
  )
  expect(await sample(apiMetrics, 'shiplog_http_requests_total', { ...route, status: '429' })).toBe(
    before.limited + 1,
  )
  expect(await sample(apiMetrics, 'shiplog_rate_limited_total', { limit: 'key' })).toBe(
    before.limitedKeys + 1,
  )
  expect(await sample(apiMetrics, 'shiplog_enqueue_commits_total', { outcome: 'ok' })).toBe(
    before.commits + 2,
  )
  expect(
    await sample(apiMetrics, 'shiplog_http_request_duration_seconds_count', route),
  ).toBeGreaterThanOrEqual(4)
  expect(await sample(apiMetrics, 'shiplog_enqueue_batch_size_count')).toBeGreaterThanOrEqual(2)
  expect(await sample(apiMetrics, 'shiplog_db_connections')).toBeGreaterThan(0)
  expect(await sample(worker, 'shiplog_worker_batch_size_count')).toBeGreaterThan(0)
  expect(await sample(worker, 'shiplog_db_connections')).toBeGreaterThan(0)
  const text = await (await fetch(`${worker}/metrics`)).text()
  expect(text).toContain('shiplog_queue_depth{queue="deployments",state="ready"}')
  expect(text).toContain('shiplog_worker_process_resident_memory_bytes')
}, 30_000)
