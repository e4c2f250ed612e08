import { afterAll, beforeAll, expect, test } from 'bun:test'
import { waitFor } from '@shiplog/db/testing'
import { LoadDriver, untilAccepted } from '../harness/driver.ts'
import { expectEachAcceptedOnce, reconcile } from '../harness/ledger.ts'
import { recordScenario } from '../harness/results.ts'
import { Stack } from '../harness/stack.ts'

let stack: Stack
beforeAll(async () => {
  stack = await Stack.create()
})
afterAll(() => stack?.close())

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('every backend of the service terminated five times under load: no lost 202, both recover alone', async () => {
  const api = await stack.startApi()
  const worker = stack.startWorker({ WORKER_BATCH_SIZE: '100' })
  const driver = new LoadDriver({
    url: `${api.base}/v1/deployments`,
    key: stack.key,
    concurrency: 16,
    label: 'cut',
  })
  let terminated = 0
  for (let round = 0; round < 5; round++) {
    await pause(600)
    terminated += await stack.terminateServiceBackends()
  }
  await pause(1_000)
  const sent = await driver.stop()

  // Recovered by itself: a fresh request is accepted and the worker records everything.
  const recoveryMs = await untilAccepted(`${api.base}/v1/deployments`, stack.key, sent, 'cut-after')
  const accepted = sent.filter((request) => request.status === 202).length
  await stack.untilDrained(accepted)
  const ledger = await reconcile(stack.sql, sent)

  const failures = sent.filter((request) => request.status !== 202)
  expect(terminated).toBeGreaterThanOrEqual(5)
  expect(failures.every((request) => request.status === 503 && request.retryAfter !== null)).toBe(
    true,
  )
  expectEachAcceptedOnce(ledger)
  expect(ledger.unacknowledged).toBe(0)
  expect(await stack.pendingJobs()).toEqual({})
  // Polled, as a load balancer does: one probe can land on a pooled connection the last cut
  // killed and wait out its reconnect (connect_timeout, 5 s), and readiness keeps an answer for
  // a second; a CI run on a busy 2-core host once took longer than 5 s. A timeout names the
  // last reason /readyz gave.
  let lastReason = ''
  await waitFor(
    async () => {
      const response = await fetch(`${api.base}/readyz`).catch(() => undefined)
      lastReason = response ? `${response.status} ${await response.text()}` : 'no answer'
      return response?.ok === true
    },
    '/readyz to be ready again',
    15_000,
  ).catch((error) => {
    throw new Error(`${error.message}; /readyz said ${lastReason}`)
  })
  expect(worker.child.exitCode).toBeNull()
  expect(api.process.child.exitCode).toBeNull()

  await recordScenario({
    id: '2-connection-cuts',
    title:
      'every Postgres backend of the service terminated (pg_terminate_backend), 5 times under load',
    passed: true,
    figures: {
      'backends terminated': terminated,
      'requests sent': ledger.sent,
      '202s': ledger.accepted,
      '503s (with Retry-After)': failures.length,
      rows: ledger.rows,
      duplicates: ledger.duplicates,
      lost: ledger.lost,
      'rows for a non-202': ledger.unacknowledged,
      'first 202 after the last cut': `${recoveryMs} ms`,
      'commits verified after a cut': api.process.logged(
        'queue commit failed; committed after all; answered 202',
      ).length,
    },
  })
}, 120_000)
