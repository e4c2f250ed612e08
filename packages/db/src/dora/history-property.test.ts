import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { createSql, type Sql } from '../client.ts'
import { ensureWorkspace } from '../queries/workspaces.ts'
import { readModelMatches, verifyReadModel } from '../read-model.ts'
import { HOUR, historyArbitrary, WEEK, WINDOW } from '../testing/dora-histories.ts'
import { type History, oracleCounts, oracleOf } from '../testing/dora-oracle.ts'
import { type Arrival, inOrder, replay } from '../testing/dora-replay.ts'
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts'
import { findChangeFailures } from './change-failures.ts'
import { doraMetrics } from './five-keys.ts'
import { DAY_MICROS } from './time-units.ts'

// Random histories of one application in production (deployments with commit lists, reverts,
// reverts of reverts, redeploys, rollbacks, voids, incidents resolved or open, some after the
// window)
// stored in random arrival orders. Whatever the order: the stored facts are those the view
// `bun run db:verify` checks; every window's figures equal the sum of its buckets' and each
// bucket asked alone; its failed deployments are those the receipts name and those the rules
// of docs/dora.md give (dora-oracle.ts), with the same recoveries; and every figure equals the
// in-order replay's.

let database: TestDatabase
let sql: Sql
let workspaceId: string
beforeAll(async () => {
  database = await createTestDatabase()
  sql = createSql(database.url, { applicationName: 'dora-history-test', maxConnections: 4 })
  workspaceId = (await ensureWorkspace(sql, 'alpha')).id
})
afterAll(async () => {
  await sql?.end()
  await database?.drop()
})

/** A shuffle of the in-order arrivals by random keys. */
const shuffled = (history: History, keys: number[]): Arrival[] =>
  inOrder(history)
    .map((arrival, i) => ({ arrival, key: keys[i] ?? i }))
    .sort((a, b) => a.key - b.key)
    .map(({ arrival }) => arrival)

const ask = (since: bigint, until: bigint, bucket: 'day' | 'week') =>
  doraMetrics(sql, { workspaceId, environmentKeys: ['production'], since, until, bucket })

type Metrics = NonNullable<Awaited<ReturnType<typeof ask>>>
const figures = ({ since: _s, until: _u, series: _x, ...keys }: Metrics) => keys

/** Everything the database answers of the history stored: facts, failures, figures. */
async function observe(windows: [bigint, bigint, 'day' | 'week'][]) {
  const facts = await sql`
    select deployment_id::text, change_type, rollback_target::text, reverts, lead_seconds
      from deployment_dora_facts order by deployment_id`
  const ids = (await sql<{ id: string }[]>`select id::text from deployments order by id`).map(
    ({ id }) => id,
  )
  const failures = Object.fromEntries(await findChangeFailures(sql, ids))
  const metrics = []
  for (const [since, until, bucket] of windows) metrics.push(await ask(since, until, bucket))
  return { facts, failures, metrics }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
/** The median of sorted seconds, as percentile_cont interpolates it, to the millisecond. */
const median = (sorted: number[]) => {
  if (sorted.length === 0) return null
  const middle = (sorted.length - 1) / 2
  const low = sorted[Math.floor(middle)] ?? 0
  const high = sorted[Math.ceil(middle)] ?? 0
  return Math.round((low + (high - low) * (middle - Math.floor(middle))) * 1000) / 1000
}

test('property: any arrival order, any window: the buckets add up, and equal the rules and the in-order replay', async () => {
  const reached = { failed: 0, open: 0, revert: 0, later: 0, voided: 0, shuffledDiffers: 0 }
  await fc.assert(
    fc.asyncProperty(
      historyArbitrary,
      fc.array(fc.double({ noNaN: true }), { minLength: 40, maxLength: 40 }),
      fc.integer({ min: 0, max: 34 * 24 }),
      fc.integer({ min: 1, max: 10 * 24 }),
      async (history, keys, fromHours, lengthHours) => {
        const from = WINDOW.since + BigInt(fromHours) * HOUR
        const windows: [bigint, bigint, 'day' | 'week'][] = [
          [WINDOW.since, WINDOW.until, 'week'],
          [from, from + BigInt(lengthHours) * HOUR, 'day'],
        ]
        await replay(sql, workspaceId, history, inOrder(history))
        const ordered = await observe(windows)
        const arrivals = shuffled(history, keys)
        if (JSON.stringify(arrivals) !== JSON.stringify(inOrder(history))) reached.shuffledDiffers++
        await replay(sql, workspaceId, history, arrivals)
        expect(readModelMatches(await verifyReadModel(sql))).toBe(true)
        const observed = await observe(windows)
        expect(observed).toEqual(ordered)

        const oracle = oracleOf(history)
        for (const [index, [since, until]] of windows.entries()) {
          const metrics = observed.metrics[index] as Metrics
          const expected = oracleCounts(oracle, since, until)
          // The window, by the rules.
          expect({
            deployments: metrics.deploymentFrequency.deployments,
            changes: metrics.changeFailRate.deployments,
            leadCommits: metrics.changeLeadTime.commits,
            failed: metrics.changeFailRate.failed,
            recoveries: metrics.failedDeploymentRecoveryTime.recoveries,
            open: metrics.failedDeploymentRecoveryTime.open,
            rework: metrics.deploymentReworkRate.rework,
          }).toEqual({
            deployments: expected.deployments,
            changes: expected.changes,
            leadCommits: expected.leadCommits,
            failed: expected.failed,
            recoveries: expected.recoveries.length,
            open: expected.open,
            rework: expected.rework,
          })
          expect(metrics.failedDeploymentRecoveryTime.medianSeconds).toEqual(
            median(expected.recoveries),
          )
          // The failed set and recoveries the receipts give are the rules'.
          const named = expected.failedIds.map((id) => {
            const failure = observed.failures[id]
            return failure ? [id, failure.recoveredAt] : [id, 'not failed']
          })
          expect(named).toEqual(
            expected.failedIds.map((id) => {
              const at = oracle.get(id)?.failure?.recoveredAt
              return [id, at == null ? null : new Date(Number(at / 1000n)).toISOString()]
            }),
          )
          // The buckets add up to the window, and each asked alone says the same.
          const series = metrics.series
          expect({
            deployments: sum(series.map((b) => b.deploymentFrequency.deployments)),
            leadCommits: sum(series.map((b) => b.changeLeadTime.commits)),
            failed: sum(series.map((b) => b.changeFailRate.failed)),
            recoveries: sum(series.map((b) => b.failedDeploymentRecoveryTime.recoveries)),
            open: sum(series.map((b) => b.failedDeploymentRecoveryTime.open)),
            rework: sum(series.map((b) => b.deploymentReworkRate.rework)),
          }).toEqual({
            deployments: expected.deployments,
            leadCommits: expected.leadCommits,
            failed: expected.failed,
            recoveries: expected.recoveries.length,
            open: expected.open,
            rework: expected.rework,
          })
          const unit = index === 0 ? WEEK : DAY_MICROS
          for (const bucket of series) {
            const start = BigInt(Date.parse(bucket.start)) * 1000n
            const alone = await ask(
              start < since ? since : start,
              start + unit > until ? until : start + unit,
              index === 0 ? 'week' : 'day',
            )
            const { start: _, ...inWindow } = bucket
            expect(figures(alone as Metrics)).toEqual(inWindow)
          }
          if (expected.failed > 0) reached.failed++
          if (expected.open > 0) reached.open++
          if (
            expected.failedIds.some((id) => (oracle.get(id)?.failure?.recoveredAt ?? 0n) >= until)
          )
            reached.later++
        }
        if (history.commits.some((c) => c.reverts.length > 0)) reached.revert++
        if (history.deployments.some((d) => d.voided)) reached.voided++
      },
    ),
    // 60 runs: a window with a failure still open comes up in about one run in five. A seed of
    // its own by default, so the check below that the runs reached each case is not left to
    // chance (a random seed left it three times or fewer about once in 40 CI runs);
    // DORA_HISTORY_SEED=random explores afresh.
    {
      numRuns: Number(process.env.DORA_HISTORY_RUNS ?? 60),
      ...(process.env.DORA_HISTORY_SEED === 'random'
        ? {}
        : { seed: Number(process.env.DORA_HISTORY_SEED ?? 20261128) }),
    },
  )
  // Not vacuous: failures, open ones, reverts, recoveries after a window's end, shuffled orders.
  for (const [what, times] of Object.entries(reached)) {
    expect({ what, reached: times > 3 }).toEqual({ what, reached: true })
  }
}, 600_000)
