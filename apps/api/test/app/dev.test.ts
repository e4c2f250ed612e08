import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createTestDatabase, randomPort, type TestDatabase, waitFor } from '@shiplog/db/testing'
import { buildCli } from '../../../../scripts/build-cli.ts'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const PORT = String(randomPort())

let database: TestDatabase
let dev: ChildProcess
let output = ''

beforeAll(async () => {
  // A fresh, empty database: `bun run dev` must migrate it and print a ready key.
  database = await createTestDatabase()
  const { createSql } = await import('@shiplog/db/client')
  const sql = createSql(database.url, { applicationName: 'test', maxConnections: 1 })
  await sql`drop schema public cascade; drop schema pgboss cascade; create schema public`.simple()
  await sql.end()
  dev = spawn('bun', ['run', 'dev'], {
    cwd: ROOT,
    // `dev` passes the environment on: the API's metrics go to any free port, not 9091.
    env: { ...process.env, DATABASE_URL: database.url, PORT, METRICS_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  dev.stdout?.on('data', (chunk) => {
    output += chunk
  })
  dev.stderr?.on('data', (chunk) => {
    output += chunk
  })
  await waitFor(async () => output.includes('See it recorded'), 'the dev banner', 30_000)
})

afterAll(async () => {
  if (dev.exitCode === null) dev.kill('SIGKILL')
  await database?.drop()
})

test('bun run dev prints a key and a curl that answers 202; the deployment is listed within 1 s', async () => {
  // The key is on a line of its own under its label, ready to copy.
  const key = /A key for workspace "dev" \(shown once; only its hash is stored\):\n\s*(\S+)\n/.exec(
    output,
  )?.[1]
  expect(key).toMatch(/^shiplog_[A-Za-z0-9_-]{43}$/)
  const curl =
    /curl -i (\S+) -H 'Authorization: Bearer (\S+)' \\\s+-H 'Content-Type: application\/json' -d '(.+)'/.exec(
      output,
    )
  expect(curl).not.toBeNull()
  const [, url, printedKey, body] = curl as RegExpExecArray
  expect(printedKey).toBe(key as string)

  const posted = await fetch(url as string, {
    method: 'POST',
    headers: { authorization: `Bearer ${printedKey}`, 'content-type': 'application/json' },
    body,
  })
  expect(posted.status).toBe(202)
  expect(await posted.text()).toBe('{"status":202}')
  const acceptedAt = Date.now()

  let listed: unknown[] = []
  await waitFor(
    async () => {
      const response = await fetch(url as string, {
        headers: { authorization: `Bearer ${printedKey}` },
      })
      listed = ((await response.json()) as { data: unknown[] }).data
      return listed.length === 1
    },
    'the deployment to be listed',
    1_000,
  )
  expect(Date.now() - acceptedAt).toBeLessThan(1_000)
  expect(listed[0]).toMatchObject(JSON.parse(body as string))
}, 60_000)

test('bun run dev prints the dashboard’s URL, and it answers with the sign-in page', async () => {
  const dashboard = /The dashboard: (\S+) \(sign in with a key that has the read scope\)/.exec(
    output,
  )
  expect(dashboard?.[1]).toBe(`http://localhost:${PORT}/ui`)
  const page = await fetch(dashboard?.[1] as string)
  expect(new URL(page.url).pathname).toBe('/ui/sign-in')
  expect(await page.text()).toContain('Sign in to Shiplog')
})

test('bun run dev serves the CLI bundle of this checkout at /cli/shiplog.mjs', async () => {
  const response = await fetch(`http://localhost:${PORT}/cli/shiplog.mjs`)
  expect(response.status).toBe(200)
  expect(await response.text()).toBe(await buildCli())
})

test('a worker that crashes is started again: the API keeps answering, and what it accepted meanwhile is recorded', async () => {
  const key = /A key for workspace "dev" \(shown once; only its hash is stored\):\n\s*(\S+)\n/.exec(
    output,
  )?.[1] as string
  const workerPid = Number(/worker started \(pid (\d+)\)/.exec(output)?.[1])
  expect(workerPid).toBeGreaterThan(0)
  process.kill(workerPid, 'SIGKILL')
  await waitFor(
    async () => output.includes('worker exited (SIGKILL); starting it again in 1 s'),
    'the restart line',
    5_000,
  )
  const base = `http://localhost:${PORT}`
  expect((await fetch(`${base}/healthz`)).status).toBe(200)
  const posted = await fetch(`${base}/v1/deployments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      repositoryFullName: 'acme/shop',
      environment: 'staging',
      app: 'checkout',
      version: '1.0.1',
      commitHash: 'b'.repeat(40),
    }),
  })
  expect(posted.status).toBe(202)
  await waitFor(
    async () => {
      const response = await fetch(`${base}/v1/deployments?environment=staging`, {
        headers: { authorization: `Bearer ${key}` },
      })
      return ((await response.json()) as { data: unknown[] }).data.length === 1
    },
    'the deployment accepted during the restart to be recorded',
    20_000,
  )
  expect([...output.matchAll(/worker started \(pid (\d+)\)/g)]).toHaveLength(2)
}, 60_000)

test('Ctrl-C stops the API and the worker cleanly', async () => {
  const exited = new Promise<number | null>((resolve) => dev.once('exit', resolve))
  dev.kill('SIGINT')
  expect(await exited).toBe(0)
  expect(output).toContain('api   \u001b[0m stopped')
  expect(output).toContain('worker\u001b[0m stopped')
}, 30_000)
