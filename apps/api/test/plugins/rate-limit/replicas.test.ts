import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { answersOk, randomPort, waitFor } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { type Harness, startHarness } from '../../support/harness.ts'

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url))

let h: Harness
const replicas: { process: ChildProcess; base: string }[] = []

beforeAll(async () => {
  h = await startHarness()
  for (let index = 0; index < 2; index++) {
    const port = randomPort()
    const child = spawn('bun', ['apps/api/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: h.databaseUrl,
        PORT: String(port),
        // Any free port: two replicas run at once, and metrics are not what this test reads.
        METRICS_PORT: '0',
        LOG_REQUESTS: 'false',
      },
      stdio: 'ignore',
    })
    const base = `http://127.0.0.1:${port}`
    replicas.push({ process: child, base })
    await waitFor(() => answersOk(`${base}/readyz`), `API replica ${index + 1} to be ready`, 20_000)
  }
}, 60_000)

afterAll(async () => {
  for (const { process: child } of replicas) {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  await h?.close()
})

test('two API processes sharing a key with a quota of 20 a minute accept 20 (±2) of 100 requests', async () => {
  const { key } = await h.createKey({ workspace: 'shared-quota', rateLimitPerMinute: 20 })
  const statuses = await Promise.all(
    Array.from({ length: 100 }, async (_, index) => {
      const replica = replicas[index % 2] as (typeof replicas)[number]
      const response = await fetch(`${replica.base}/v1/deployments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(validDeployment({ version: `r-${index}` })),
      })
      return { status: response.status }
    }),
  )
  const accepted = statuses.filter(({ status }) => status === 202)
  expect(statuses.filter(({ status }) => status !== 202 && status !== 429)).toEqual([])
  expect(accepted.length).toBeGreaterThanOrEqual(18)
  expect(accepted.length).toBeLessThanOrEqual(22)
  expect(await h.drain()).toBe(accepted.length)
}, 30_000)
