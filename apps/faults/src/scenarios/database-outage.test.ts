import { afterAll, beforeAll, expect, test } from 'bun:test'
import { answersOk, waitFor } from '@shiplog/db/testing'
import { LoadDriver, postDeployment, type Sent, untilAccepted } from '../harness/driver.ts'
import { expectEachAcceptedOnce, reconcile } from '../harness/ledger.ts'
import { recordScenario } from '../harness/results.ts'
import { Stack } from '../harness/stack.ts'

let stack: Stack
beforeAll(async () => {
  stack = await Stack.create()
})
afterAll(() => stack?.close())

const OUTAGE_MS = 4_000

test('Postgres unreachable for 4 s under load: fast 503s, /readyz fails, both recover alone, no lost 202', async () => {
  const api = await stack.startApi()
  const worker = stack.startWorker()
  const url = `${api.base}/v1/deployments`
  const driver = new LoadDriver({ url, key: stack.key, concurrency: 16, label: 'outage' })
  await waitFor(() => driver.count(202) >= 500, '500 accepted before the outage', 15_000)

  const downAt = Date.now()
  const sentBeforeOutage = driver.sent.length
  await stack.proxy.stop()
  await waitFor(async () => !(await answersOk(`${api.base}/readyz`)), '/readyz to fail', 5_000)
  const readyzFailedAfterMs = Date.now() - downAt
  // A client arriving during the outage is answered at once: 503 with Retry-After, every time.
  // (Requests whose batch was cut mid-commit are held until their outcome is known instead.)
  const probes: Sent[] = []
  while (Date.now() - downAt < OUTAGE_MS) {
    probes.push(await postDeployment(url, stack.key, `outage-probe-${probes.length}`))
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const duringOutage = driver.sent.slice(sentBeforeOutage)
  await stack.proxy.start()
  const backAt = Date.now()
  await waitFor(() => answersOk(`${api.base}/readyz`), '/readyz to recover', 15_000)
  const readyzRecoveredAfterMs = Date.now() - backAt
  const sent = [...(await driver.stop()), ...probes]
  const recoveryMs = await untilAccepted(url, stack.key, sent, 'outage-after')

  const accepted = sent.filter((request) => request.status === 202).length
  await stack.untilDrained(accepted)
  const ledger = await reconcile(stack.sql, sent)
  const refused = [...duringOutage, ...probes].filter((request) => request.status !== 202)
  const slowestProbe = Math.max(0, ...probes.map((probe) => probe.ms))
  const held = duringOutage.filter((request) => request.status === 202)

  expect(sent.filter((request) => ![202, 503].includes(request.status))).toEqual([])
  expect(probes.length).toBeGreaterThan(5)
  expect(probes.every((probe) => probe.status === 503 && probe.retryAfter !== null)).toBe(true)
  expect(slowestProbe).toBeLessThan(1_500)
  expect(refused.every((request) => request.retryAfter !== null)).toBe(true)
  expect(api.process.logged('unexpected error')).toEqual([])
  expectEachAcceptedOnce(ledger)
  expect(ledger.unacknowledged).toBe(0)
  expect(await stack.pendingJobs()).toEqual({})
  expect(worker.child.exitCode).toBeNull()
  expect(api.process.child.exitCode).toBeNull()

  await recordScenario({
    id: '3-database-outage',
    title: `Postgres unreachable for ${OUTAGE_MS / 1000} s under load (nothing listening), then back`,
    passed: true,
    figures: {
      'requests sent': ledger.sent,
      '202s': ledger.accepted,
      '503s during the outage': refused.length,
      'probes during the outage answered 503': `${probes.filter((probe) => probe.status === 503).length} of ${probes.length}`,
      'slowest probe answer during the outage': `${slowestProbe} ms`,
      '/readyz failing after': `${readyzFailedAfterMs} ms`,
      '/readyz ready again after Postgres returned': `${readyzRecoveredAfterMs} ms`,
      'first 202 after recovery': `${recoveryMs} ms`,
      rows: ledger.rows,
      duplicates: ledger.duplicates,
      lost: ledger.lost,
      'rows for a non-202': ledger.unacknowledged,
      'cut commits confirmed after Postgres returned (answered 202)': api.process.logged(
        'queue commit failed; committed after all; answered 202',
      ).length,
      'answers "outcome unknown"': api.process.logged(
        'queue commit failed; outcome unknown; answered 503 outcome-unknown',
      ).length,
      'requests held through the outage, then answered 202': held.length,
    },
  })
}, 120_000)
