import { describe, expect, test } from 'bun:test'
import { migrateDatabase } from '@shiplog/db/migrate'
import {
  type FailoverPair,
  findPostgresBinaries,
  runCli,
  startFailoverPair,
  waitFor,
} from '@shiplog/db/testing'
import { reconcile } from '../harness/ledger.ts'
import { HealthProbes } from '../harness/probes.ts'
import { recordScenario } from '../harness/results.ts'
import { longestGapWithout202, RetryingSenders } from '../harness/retrying-senders.ts'
import { Stack } from '../harness/stack.ts'

const binaries = findPostgresBinaries()

const RATE = 200
/**
 * How long after the primary stops the standby is promoted. A real manager takes its own time to
 * decide (Patroni's ttl, 30 s by default; CloudNativePG, seconds): that time adds to the gap.
 */
const PROMOTE_AFTER_MS = 2_000
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Failover {
  id: string
  title: string
  /** `immediate`: the primary crashes; `fast`: a planned switchover shuts it down cleanly. */
  stop: 'immediate' | 'fast'
  synchronous: boolean
  /** How far the standby falls behind before the stop (its WAL receiver frozen), if at all. */
  lagMs?: number
}

/**
 * The stack on a two-host DATABASE_URL under 200 deployments a second from retrying senders; the
 * primary stops, the standby is promoted 2 s later, and the old primary comes back as its
 * standby, all under load. Resolves with the ledger and what the probes saw.
 */
async function failOver(kind: Failover) {
  const pair: FailoverPair = await startFailoverPair(binaries as string)
  await pair.setSynchronous(kind.synchronous)
  await migrateDatabase(pair.url)
  const stack = await Stack.onDatabase({ url: pair.url, drop: () => pair.stop() })
  try {
    const api = await stack.startApi()
    const worker = stack.startWorker()
    const probes = new HealthProbes(api.base)
    const senders = new RetryingSenders({
      base: api.base,
      key: stack.key,
      rate: RATE,
      label: kind.id,
    })
    await waitFor(() => senders.accepted >= 3 * RATE, 'three seconds of 202s', 20_000)

    const resume = kind.lagMs ? await pair.stallReplication() : undefined
    if (kind.lagMs) await pause(kind.lagMs)
    const stoppedAt = Date.now()
    const stopping = pair.stopPrimary(kind.stop)
    // Let a frozen sender go once the stop's signal is pending: it handles the signal before it
    // sends anything, so the crash takes what it held back (the primary waits for its children).
    if (resume) await pause(100).then(resume)
    await stopping
    await pause(PROMOTE_AFTER_MS)
    await pair.promoteStandby()
    const promotedAt = Date.now()
    await pause(4_000)
    await pair.rejoinOldPrimary()
    const rejoinedAt = Date.now()
    await pause(3_000)
    const load = await senders.stop()
    await probes.stop()

    // Every deployment the new primary holds must be recorded; what the old one alone held (an
    // asynchronous standby's lag) is gone, and the ledger counts it.
    await waitFor(
      async () => Object.keys(await stack.pendingJobs()).length === 0,
      'the queue to drain',
      60_000,
    )
    const ledger = await reconcile(stack.sql, load.deployments)
    const verify = await runCli(['db:verify'], { DATABASE_URL: pair.url })
    const gap = longestGapWithout202(load.attempts)
    // Read before close() stops them: neither process may have died on its own.
    const running = api.process.child.exitCode === null && worker.child.exitCode === null
    return {
      running,
      ledger,
      load,
      probes,
      verify,
      gap,
      stoppedAt,
      promotedAt,
      rejoinedAt,
      unexpectedErrors: api.process.logged('unexpected error'),
      firstAcceptedAfterPromotion:
        Math.min(
          ...load.attempts
            .filter((attempt) => attempt.status === 202 && attempt.at >= promotedAt)
            .map((attempt) => attempt.at),
        ) - promotedAt,
    }
  } finally {
    await stack.close()
  }
}

type Outcome = Awaited<ReturnType<typeof failOver>>

function expectServiceHeld(outcome: Outcome) {
  const { load, probes, verify, stoppedAt, promotedAt } = outcome
  // No 5xx but 503; a retried deployment is never given up on.
  const statuses = new Set(load.attempts.map((attempt) => attempt.status))
  expect([...statuses].filter((status) => status >= 500 && status !== 503)).toEqual([])
  expect(load.deployments.filter((sent) => sent.status !== 202)).toEqual([])
  // Liveness held; readiness dropped while there was no primary, and came back.
  expect(probes.healthz.filter((answer) => answer.status !== 200)).toEqual([])
  expect(probes.readyzBetween(stoppedAt, promotedAt)).toContain(503)
  expect(probes.readyz.at(-1)?.status).toBe(200)
  expect(verify.code).toBe(0)
  expect(verify.stdout).toContain('The read model matches the deployments.')
  expect(outcome.unexpectedErrors).toEqual([])
  expect(outcome.running).toBe(true)
}

function figuresOf(outcome: Outcome, kind: Failover) {
  const { ledger, load, gap, stoppedAt, promotedAt } = outcome
  const count = (status: number) => load.attempts.filter((a) => a.status === status).length
  return {
    replication: kind.synchronous ? 'synchronous' : 'asynchronous',
    'primary stopped': kind.stop === 'immediate' ? 'immediate (a crash)' : 'fast (clean)',
    'standby behind when it stopped': kind.lagMs
      ? `${kind.lagMs} ms (its WAL sender frozen)`
      : 'no',
    'deployments sent (200/s, retried as the CLI does)': ledger.sent,
    'answered 202 in the end': ledger.accepted,
    'deployments retried': load.retried,
    'HTTP attempts': load.attempts.length,
    '503 answers': count(503),
    'other 5xx answers': load.attempts.filter((a) => a.status >= 500 && a.status !== 503).length,
    'longest time without a 202': `${gap.ms} ms`,
    'of which before the promotion': `${Math.max(0, promotedAt - Math.max(gap.from, stoppedAt))} ms (promotion ${PROMOTE_AFTER_MS} ms after the stop)`,
    'first 202 after the promotion': `${outcome.firstAcceptedAfterPromotion} ms`,
    'recorded rows': ledger.rows,
    'lost (202, no row)': ledger.lost,
    duplicates: ledger.duplicates,
    'rows for a non-202': ledger.unacknowledged,
  }
}

/** Fails over as `kind` says; the service must hold and every 202 be recorded once. */
async function expectNothingLost(kind: Failover) {
  const outcome = await failOver(kind)
  expectServiceHeld(outcome)
  expect(outcome.ledger.lost).toBe(0)
  expect(outcome.ledger.duplicates).toBe(0)
  expect(outcome.ledger.unacknowledged).toBe(0)
  await recordScenario({ ...kind, passed: true, figures: figuresOf(outcome, kind) })
}

describe.skipIf(!binaries)('Postgres fails over under live load', () => {
  test('the primary crashes, the synchronous standby is promoted: every 202 recorded once, only 503s', async () => {
    await expectNothingLost({
      id: '10a-failover-crash',
      title: 'The primary crashes under 200 deployments/s; its synchronous standby is promoted',
      stop: 'immediate',
      synchronous: true,
    })
  }, 180_000)

  test('a planned switchover: the primary shut down cleanly, the standby promoted, no 202 lost', async () => {
    await expectNothingLost({
      id: '10b-failover-switchover',
      title: 'A planned switchover under 200 deployments/s (the primary shut down cleanly first)',
      stop: 'fast',
      synchronous: true,
    })
  }, 180_000)

  test('with asynchronous replication the crash loses what the standby had not received: counted', async () => {
    const kind: Failover = {
      id: '10c-failover-asynchronous',
      title:
        'The primary crashes under 200 deployments/s, its asynchronous standby 1 s behind; the standby is promoted',
      stop: 'immediate',
      synchronous: false,
      lagMs: 1_000,
    }
    const outcome = await failOver(kind)
    expectServiceHeld(outcome)
    // The second the standby missed held about 200 accepted deployments: gone with the old
    // primary, counted here. Nothing is recorded twice even so.
    expect(outcome.ledger.lost).toBeGreaterThan(0)
    expect(outcome.ledger.duplicates).toBe(0)
    await recordScenario({ ...kind, passed: true, figures: figuresOf(outcome, kind) })
  }, 180_000)
})
