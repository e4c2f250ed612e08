import { afterAll, beforeAll, expect, test } from 'bun:test'
import { waitFor } from '@shiplog/db/testing'
import { LoadDriver } from '../harness/driver.ts'
import { expectEachAcceptedOnce, reconcile } from '../harness/ledger.ts'
import { recordScenario } from '../harness/results.ts'
import { Stack } from '../harness/stack.ts'

let stack: Stack
beforeAll(async () => {
  stack = await Stack.create()
})
afterAll(() => stack?.close())

test('kill -9 of the worker mid-drain: a new worker records every accepted deployment exactly once', async () => {
  const api = await stack.startApi()
  const driver = new LoadDriver({
    url: `${api.base}/v1/deployments`,
    key: stack.key,
    concurrency: 32,
    label: 'kill',
  })
  await waitFor(() => driver.count(202) >= 4_000, '4,000 accepted deployments', 60_000)
  const sent = await driver.stop()
  const accepted = sent.filter((request) => request.status === 202).length

  // Small batches, so the kill lands in the middle of the drain, inside a transaction.
  const first = stack.startWorker({ WORKER_BATCH_SIZE: '50', WORKER_CONCURRENCY: '2' })
  await waitFor(
    async () => (await stack.deploymentCount()) >= 1_000,
    'the first worker to record 1,000',
    30_000,
  )
  first.signal('SIGKILL')
  const killed = await first.exited
  const recordedBeforeKill = await stack.deploymentCount()

  const second = stack.startWorker()
  const restartedAt = Date.now()
  await stack.untilDrained(accepted)
  const drainSeconds = (Date.now() - restartedAt) / 1000
  const ledger = await reconcile(stack.sql, sent)
  const unfinished = await stack.pendingJobs()

  expect(killed.signal).toBe('SIGKILL')
  expect(recordedBeforeKill).toBeLessThan(accepted)
  expectEachAcceptedOnce(ledger)
  expect(ledger.unacknowledged).toBe(0)
  expect(ledger.rows).toBe(accepted)
  expect(unfinished).toEqual({})
  expect(second.child.exitCode).toBeNull()

  await recordScenario({
    id: '1-worker-kill',
    title: 'kill -9 of the worker in the middle of a drain',
    passed: true,
    figures: {
      'requests sent': ledger.sent,
      '202s': ledger.accepted,
      'recorded before the kill': recordedBeforeKill,
      rows: ledger.rows,
      duplicates: ledger.duplicates,
      lost: ledger.lost,
      'jobs left active or queued': Object.values(unfinished).reduce(
        (sum, count) => sum + count,
        0,
      ),
      'second worker drained the rest in': `${drainSeconds.toFixed(1)} s`,
    },
  })
}, 120_000)
