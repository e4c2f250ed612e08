import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { type Harness, startHarness, validDeployment, waitFor } from './harness.ts'
import { sample } from './prometheus.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const port = () => 21_000 + Math.floor(Math.random() * 20_000)

let h: Harness
const processes: ChildProcess[] = []
let api = ''
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
  const apiPort = port()
  const workerPort = port()
  api = `http://127.0.0.1:${apiPort}`
  worker = `http://127.0.0.1:${workerPort}`
  start('apps/api/src/main.ts', { PORT: String(apiPort), LOG_REQUESTS: 'false' })
  start('apps/worker/src/main.ts', {
    WORKER_PORT: String(workerPort),
    WORKER_POLL_INTERVAL_MS: '50',
  })
  const ok = (url: string) =>
    fetch(url).then(
      (response) => response.ok,
      () => false,
    )
  await waitFor(() => ok(`${api}/readyz`), 'the API to be ready', 20_000)
  await waitFor(() => ok(`${worker}/readyz`), 'the worker to be ready', 20_000)
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

test('/metrics on the API and the worker show the counters moving after traffic', async () => {
  const { key } = await h.createKey({ workspace: 'metrics', rateLimitPerMinute: 3 })
  const route = { method: 'POST', route: '/v1/deployments' }
  const before = {
    accepted: await sample(api, 'shiplog_http_requests_total', { ...route, status: '202' }),
    invalid: await sample(api, 'shiplog_http_requests_total', { ...route, status: '422' }),
    limited: await sample(api, 'shiplog_rate_limited_total', { limit: 'key' }),
    commits: await sample(api, 'shiplog_enqueue_commits_total', { outcome: 'ok' }),
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
  expect(await sample(api, 'shiplog_http_requests_total', { ...route, status: '202' })).toBe(
    before.accepted + 2,
  )
  expect(await sample(api, 'shiplog_http_requests_total', { ...route, status: '422' })).toBe(
    before.invalid + 1,
  )
  expect(await sample(api, 'shiplog_rate_limited_total', { limit: 'key' })).toBe(before.limited + 1)
  expect(await sample(api, 'shiplog_enqueue_commits_total', { outcome: 'ok' })).toBe(
    before.commits + 2,
  )
  expect(
    await sample(api, 'shiplog_http_request_duration_seconds_count', route),
  ).toBeGreaterThanOrEqual(4)
  expect(await sample(api, 'shiplog_enqueue_batch_size_count')).toBeGreaterThanOrEqual(2)
  expect(await sample(api, 'shiplog_db_connections')).toBeGreaterThan(0)
  expect(await sample(worker, 'shiplog_worker_batch_size_count')).toBeGreaterThan(0)
  expect(await sample(worker, 'shiplog_db_connections')).toBeGreaterThan(0)
  const text = await (await fetch(`${worker}/metrics`)).text()
  expect(text).toContain('shiplog_queue_depth{queue="deployments",state="ready"}')
  expect(text).toContain('shiplog_worker_process_resident_memory_bytes')
}, 30_000)
