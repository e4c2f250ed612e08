import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createConnection } from 'node:net'
import { answersOk, waitFor } from '@shiplog/db/testing'
import { LoadDriver } from '../harness/driver.ts'
import { expectEachAcceptedOnce, reconcile } from '../harness/ledger.ts'
import { recordScenario } from '../harness/results.ts'
import { Stack } from '../harness/stack.ts'

let stack: Stack
beforeAll(async () => {
  stack = await Stack.create()
})
afterAll(() => stack?.close())

function refusesConnections(base: string): Promise<boolean> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port) })
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })
}

test('SIGTERM to the API under load: readiness fails, in-flight requests finish, exit 0', async () => {
  const api = await stack.startApi({ SHUTDOWN_DELAY_MS: '500' })
  stack.startWorker()
  const url = `${api.base}/v1/deployments`
  const driver = new LoadDriver({ url, key: stack.key, concurrency: 16, label: 'term' })
  await waitFor(() => driver.count(202) >= 1_000, '1,000 accepted', 15_000)

  const signalledAt = Date.now()
  const acceptedBeforeSignal = driver.count(202)
  api.process.signal('SIGTERM')
  await waitFor(async () => !(await answersOk(`${api.base}/readyz`)), '/readyz to fail', 400)
  const readyzFailedAfterMs = Date.now() - signalledAt
  const exit = await api.process.exited
  const refusedAfterExit = await refusesConnections(api.base)
  const sent = await driver.stop()

  const accepted = sent.filter((request) => request.status === 202).length
  await stack.untilDrained(accepted)
  const ledger = await reconcile(stack.sql, sent)

  expect(exit.code).toBe(0)
  expect(exit.at - signalledAt).toBeLessThan(5_000)
  expect(accepted).toBeGreaterThan(acceptedBeforeSignal)
  expect(sent.filter((request) => ![0, 202].includes(request.status))).toEqual([])
  expect(refusedAfterExit).toBe(true)
  expectEachAcceptedOnce(ledger)
  expect(ledger.unacknowledged).toBe(0)

  await recordScenario({
    id: '4a-api-sigterm',
    title: 'SIGTERM to the API under load (SHUTDOWN_DELAY_MS=500)',
    passed: true,
    figures: {
      'requests sent': ledger.sent,
      '202s': ledger.accepted,
      '202s after the signal (served during the delay and drain)': accepted - acceptedBeforeSignal,
      'requests with no answer (connection closed or refused)': ledger.statuses['0'] ?? 0,
      '/readyz failing after the signal': `${readyzFailedAfterMs} ms`,
      'exit code': String(exit.code),
      'exited after the signal': `${exit.at - signalledAt} ms`,
      rows: ledger.rows,
      duplicates: ledger.duplicates,
      lost: ledger.lost,
      'rows for a non-202': ledger.unacknowledged,
    },
  })
}, 120_000)

test('SIGTERM to the worker mid-drain: it exits 0 promptly, nothing is left stuck, a new one finishes', async () => {
  const api = await stack.startApi()
  for (const worker of stack.workers) await worker.stop()
  const url = `${api.base}/v1/deployments`
  const driver = new LoadDriver({ url, key: stack.key, concurrency: 16, label: 'wterm' })
  await waitFor(() => driver.count(202) >= 3_000, '3,000 accepted', 15_000)
  const sent = await driver.stop()
  const before = await stack.deploymentCount()

  const worker = stack.startWorker({ WORKER_BATCH_SIZE: '50', WORKER_CONCURRENCY: '2' })
  const recorded500 = async () => (await stack.deploymentCount()) >= before + 500
  await waitFor(recorded500, 'the worker to record 500', 15_000)
  const signalledAt = Date.now()
  worker.signal('SIGTERM')
  const exit = await worker.exited
  const atExit = await stack.deploymentCount()
  const pendingAtExit = await stack.pendingJobs()

  stack.startWorker()
  const accepted = sent.filter((request) => request.status === 202).length
  await stack.untilDrained(before + accepted)
  const ledger = await reconcile(stack.sql, sent)

  expect(exit.code).toBe(0)
  expect(exit.at - signalledAt).toBeLessThan(5_000)
  expect(pendingAtExit.active ?? 0).toBe(0)
  expectEachAcceptedOnce(ledger)
  expect(await stack.pendingJobs()).toEqual({})

  await recordScenario({
    id: '4b-worker-sigterm',
    title: 'SIGTERM to the worker in the middle of a drain',
    passed: true,
    figures: {
      'jobs queued': accepted,
      'recorded when it exited': atExit - before,
      'exit code': String(exit.code),
      'exited after the signal': `${exit.at - signalledAt} ms`,
      'jobs left active at exit': pendingAtExit.active ?? 0,
      rows: ledger.rows - before,
      duplicates: ledger.duplicates,
      lost: ledger.lost,
    },
  })
}, 120_000)
