import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type ChildProcess, spawn } from 'node:child_process'
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import { answersOk, randomPort, waitFor } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { buildCli } from '../../../../scripts/build-cli.ts'
import { type Harness, startHarness } from '../support/harness.ts'
import { startProvider, type TestProvider } from '../support/oidc-provider.ts'
import { sample } from '../support/prometheus.ts'
import { ssoEnv } from '../support/served-sso.ts'

// The API and the worker as production would run them under Deno, against a database of their
// own. Kept out of the root `test` script (run it with `bun run test:deno`) so the Bun suite
// never depends on the Deno binary; it takes about two seconds.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const port = randomPort

/**
 * The Deno binary of the root devDependency. Not `node_modules/.bin/deno`: that is a Node wrapper
 * which runs Deno with `spawnSync` and dies on SIGTERM without passing it on, leaving Deno running,
 * so the shutdown under test would never reach Deno. `runInstall` is what the wrapper itself calls to find the binary.
 */
function denoBinary(): string {
  const require = createRequire(`${ROOT}package.json`)
  return require('deno/install_api.cjs').runInstall()
}

interface DenoProcess {
  child: ChildProcess
  output: string[]
  exited: Promise<number | null>
}

let h: Harness
const processes: DenoProcess[] = []
let api = ''
/** The API's METRICS_PORT listener, node:http under Deno. */
let apiMetrics = ''
let worker = ''
let apiProcess: DenoProcess
let workerProcess: DenoProcess
let provider: TestProvider

function start(entry: string, env: Record<string, string>): DenoProcess {
  const child = spawn(denoBinary(), ['run', '-A', entry], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', DATABASE_URL: h.databaseUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  child.stdout?.on('data', (chunk) => output.push(String(chunk)))
  child.stderr?.on('data', (chunk) => output.push(String(chunk)))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const started = { child, output, exited }
  processes.push(started)
  return started
}

/** What a process printed, for a failure message. */
const printed = (started: DenoProcess) => started.output.join('').slice(-4000)

/** A keyless `GET /v1/deployments` sent from `localAddress` (any 127.x.y.z on Linux). */
function statusFrom(localAddress: string, base: string): Promise<number | undefined> {
  const url = new URL('/v1/deployments', base)
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: url.hostname, port: url.port, path: url.pathname, localAddress },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode))
      },
    )
    sent.on('error', reject)
    sent.end()
  })
}

beforeAll(async () => {
  h = await startHarness()
  const apiPort = port()
  const metricsPort = port()
  const workerPort = port()
  api = `http://127.0.0.1:${apiPort}`
  // Single sign-on on, so its client library (oauth4webapi, Web APIs only) runs under Deno too.
  provider = await startProvider(api)
  apiMetrics = `http://127.0.0.1:${metricsPort}`
  worker = `http://127.0.0.1:${workerPort}`
  apiProcess = start('apps/api/src/main.ts', {
    PORT: String(apiPort),
    METRICS_PORT: String(metricsPort),
    HOST: '127.0.0.1',
    LOG_REQUESTS: 'false',
    UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '2',
    ...ssoEnv(provider.issuer, api),
  })
  workerProcess = start('apps/worker/src/main.ts', {
    WORKER_PORT: String(workerPort),
    WORKER_POLL_INTERVAL_MS: '50',
  })
  await waitFor(() => answersOk(`${api}/readyz`), 'the API to be ready under Deno', 60_000).catch(
    (error) => {
      throw new Error(`${error.message}\n${printed(apiProcess)}`)
    },
  )
  await waitFor(
    () => answersOk(`${worker}/readyz`),
    'the worker to be ready under Deno',
    60_000,
  ).catch((error) => {
    throw new Error(`${error.message}\n${printed(workerProcess)}`)
  })
}, 120_000)

afterAll(async () => {
  // Only what a failed test left running; the shutdown test stops them itself.
  for (const { child } of processes) if (child.exitCode === null) child.kill('SIGKILL')
  await h?.close()
  await provider?.stop()
})

test('the API serves with Deno.serve, not a Bun server', () => {
  // What an operator reads in the log: one line saying which runtime serves which port.
  const listening = apiProcess.output
    .join('')
    .split('\n')
    .filter((line) => line.includes('"api listening"'))
    .map((line) => JSON.parse(line))
  expect(listening).toEqual([
    expect.objectContaining({
      runtime: 'deno',
      port: Number(new URL(api).port),
      host: '127.0.0.1',
    }),
  ])
})

test('the Deno API serves the CLI bundle and its SHA-256', async () => {
  const response = await fetch(`${api}/cli/shiplog.mjs`)
  expect(response.status).toBe(200)
  const bundle = new Uint8Array(await response.arrayBuffer())
  const built = new TextEncoder().encode(await buildCli())
  expect(bundle).toEqual(built)
  const checksum = await (await fetch(`${api}/cli/shiplog.mjs.sha256`)).text()
  expect(checksum).toBe(
    `${new Bun.CryptoHasher('sha256').update(built).digest('hex')}  shiplog.mjs\n`,
  )
})

test('under Deno, single sign-on discovers the provider and sends the browser there with PKCE', async () => {
  const response = await fetch(`${api}/ui/sign-in/sso`, { redirect: 'manual' })
  expect(response.status).toBe(303)
  const location = new URL(response.headers.get('location') ?? '')
  expect(location.origin).toBe(provider.issuer)
  expect(location.searchParams.get('code_challenge_method')).toBe('S256')
  expect(response.headers.get('set-cookie')).toContain('SameSite=Lax')
})

test('a deployment posted to the Deno API is recorded by the Deno worker', async () => {
  const { key } = await h.createKey({ workspace: 'deno' })
  const response = await fetch(`${api}/v1/deployments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(validDeployment({ version: 'deno-1' })),
  })
  expect(response.status).toBe(202)
  expect(await response.json()).toEqual({ status: 202 })

  const listed = async () => {
    const list = await fetch(`${api}/v1/deployments`, {
      headers: { authorization: `Bearer ${key}` },
    })
    const { data } = (await list.json()) as { data: { version: string }[] }
    return data.some((deployment) => deployment.version === 'deno-1')
  }
  await waitFor(listed, 'the Deno worker to record the deployment', 20_000)

  const posted = { method: 'POST', route: '/v1/deployments', status: '202' }
  expect(await sample(apiMetrics, 'shiplog_http_requests_total', posted)).toBeGreaterThanOrEqual(1)
  expect(
    await sample(apiMetrics, 'shiplog_enqueue_commits_total', { outcome: 'ok' }),
  ).toBeGreaterThan(0)
  expect(await sample(worker, 'shiplog_jobs_recorded_total')).toBeGreaterThanOrEqual(1)
  expect(await sample(worker, 'shiplog_db_connections')).toBeGreaterThan(0)
}, 30_000)

test('the per-address limit sees each client address under Deno', async () => {
  // Two requests per minute without a key: the third from one address is limited, while another
  // address still has its own tokens. Were addresses unknown, all would share one bucket.
  expect(await statusFrom('127.0.0.2', api)).toBe(401)
  expect(await statusFrom('127.0.0.2', api)).toBe(401)
  expect(await statusFrom('127.0.0.2', api)).toBe(429)
  expect(await statusFrom('127.0.0.3', api)).toBe(401)
  expect(await sample(apiMetrics, 'shiplog_rate_limited_total', { limit: 'address' })).toBe(1)
})

/**
 * Opens a `POST /v1/deployments` and sends all but the tail of its body; `finish` sends the rest.
 * Resolves once the API's handler is reading the body: the request asks `Expect: 100-continue`,
 * which the server answers only when the body is first read. Without that wait a SIGTERM sent at
 * once could arrive before the request reached the handler, and a request that was never in
 * flight is rightly turned away with a 503.
 */
async function startSlowPost(base: string, key: string) {
  const url = new URL(base)
  const body = JSON.stringify(validDeployment({ version: 'deno-draining' }))
  const socket = connect(Number(url.port), url.hostname)
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  let received = ''
  const reading = Promise.withResolvers<void>()
  socket.on('data', (chunk) => {
    received += String(chunk)
    if (received.includes('100 Continue')) reading.resolve()
  })
  const closed = new Promise((resolve) => socket.once('close', resolve))
  socket.write(
    `POST /v1/deployments HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n` +
      'expect: 100-continue\r\n\r\n',
  )
  await reading.promise
  socket.write(body.slice(0, 10))
  return {
    /** Sends the rest of the body; resolves with the final response's status line. */
    async finish(): Promise<string> {
      // Not `end()`: a half-closed socket makes Deno drop a body it has not read yet, which no
      // real client does and which is not what this test is about.
      socket.write(body.slice(10))
      await closed
      const statusLines = received.split('\r\n').filter((line) => line.startsWith('HTTP/1.1 '))
      return statusLines.at(-1) ?? ''
    },
  }
}

test('SIGTERM lets a request still sending its body finish, then both exit 0', async () => {
  const { key } = await h.createKey({ workspace: 'deno-shutdown' })
  const slow = await startSlowPost(api, key)

  apiProcess.child.kill('SIGTERM')
  workerProcess.child.kill('SIGTERM')
  // Readiness fails first; then the API stops listening (refused) or, while the slow request
  // is in flight, answers new requests itself. Either way, that request is in the shutdown now.
  await waitFor(async () => {
    const response = await fetch(`${api}/readyz`).catch(() => undefined)
    return !response || (await response.text()).includes('This instance is shutting down')
  }, 'the API to stop taking requests')
  expect(await slow.finish()).toBe('HTTP/1.1 202 Accepted')

  const [apiCode, workerCode] = await Promise.all([apiProcess.exited, workerProcess.exited])
  expect({ api: apiCode, output: apiCode === 0 ? '' : printed(apiProcess) }).toEqual({
    api: 0,
    output: '',
  })
  expect({ worker: workerCode, output: workerCode === 0 ? '' : printed(workerProcess) }).toEqual({
    worker: 0,
    output: '',
  })
  expect(printed(apiProcess)).toContain('"msg":"stopped"')
  expect(printed(workerProcess)).toContain('"msg":"stopped"')
}, 30_000)
