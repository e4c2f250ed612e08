import { afterAll, beforeAll, expect, test } from 'bun:test'
import { loadApiEnv } from '../src/env.ts'
import { createApiServer } from '../src/server.ts'
import { type Harness, startHarness, validDeployment } from './harness.ts'

let h: Harness
let second: ReturnType<typeof createApiServer>
beforeAll(async () => {
  h = await startHarness()
  // A second API replica: its own process state (key cache, leases), the same database.
  second = createApiServer(loadApiEnv({ DATABASE_URL: h.databaseUrl }), () => {})
  await second.start()
})
afterAll(async () => {
  await second?.shutdown(async () => {})
  await h?.close()
})

test('two replicas sharing a key with a quota of 20 a minute accept 20 of 100 requests', async () => {
  const { key } = await h.createKey({ workspace: 'shared-quota', rateLimitPerMinute: 20 })
  const replicas = [h.api.app, second.app]
  const statuses = await Promise.all(
    Array.from({ length: 100 }, (_, index) =>
      (replicas[index % 2] as (typeof replicas)[number])
        .handle(
          new Request('http://shiplog.test/v1/deployments', {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(validDeployment({ version: `r-${index}` })),
          }),
        )
        .then((response) => response.status),
    ),
  )
  const accepted = statuses.filter((status) => status === 202).length
  expect(statuses.filter((status) => status !== 202 && status !== 429)).toEqual([])
  expect(accepted).toBeGreaterThanOrEqual(18)
  expect(accepted).toBeLessThanOrEqual(21)
  expect(await h.drain()).toBe(accepted)
})
