import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { createSql, type Sql } from '../client.ts'
import { recordDeployments } from '../queries/record-deployments.ts'
import { ensureWorkspace } from '../queries/workspaces.ts'
import { inSnapshot } from '../read/snapshot.ts'
import { HOUR, historyArbitrary, WINDOW } from '../testing/dora-histories.ts'
import { inOrder, replay } from '../testing/dora-replay.ts'
import { emptyRecordedTables } from '../testing/recorded-jobs.ts'
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts'
import { doraComparison } from './comparison.ts'
import { doraStatement } from './statement.ts'
import { isoOf } from './time-units.ts'

// The DORA page's comparison, on random histories of one application in production (and a
// second application with a rollback beside it): the previous period's row equals that period
// asked alone, and each application's row equals the window asked for that application.

let database: TestDatabase
let sql: Sql
let workspaceId: string
beforeAll(async () => {
  database = await createTestDatabase()
  sql = createSql(database.url, { applicationName: 'dora-comparison-test', maxConnections: 4 })
  workspaceId = (await ensureWorkspace(sql, 'alpha')).id
})
afterAll(async () => {
  await sql?.end()
  await database?.drop()
})

/** The second application: v1, v2, then a rollback to v1 (v2 failed, and recovered). */
async function recordSearch(at: bigint) {
  const jobs = ['1', '2', '1'].map((commit, index) => ({
    id: `00000009-0000-7000-8000-00000000000${index + 1}`,
    workspaceId,
    receivedAt: '2026-05-04T12:00:00.000Z',
    deployment: {
      repositoryFullName: 'acme/search',
      environment: 'production',
      app: 'search',
      version: `s${index}`,
      commitHash: commit.repeat(40),
      description: null,
      author: null,
      deployedAt: isoOf(at + BigInt(index * 30) * HOUR),
      monorepoPath: null,
    },
  }))
  await sql.begin((tx) => recordDeployments(tx, jobs))
}

/** The row of [since, until) asked alone, as the five keys ask their window's. */
const rowOf = async (since: bigint, until: bigint, appKey?: string) => {
  const scope = { workspaceId, environmentKeys: ['production'], appKey }
  const periods = await inSnapshot(sql, (tx) =>
    doraStatement(tx, scope, [{ since, until, whole: true }]),
  )
  return periods?.[0]?.whole
}

test('property: the previous period and each application equal their windows asked alone', async () => {
  const reached = { previousDeployments: 0, failedApplications: 0, leadCommits: 0 }
  await fc.assert(
    fc.asyncProperty(
      historyArbitrary,
      fc.integer({ min: 0, max: 30 * 24 }),
      fc.integer({ min: 1, max: 14 * 24 }),
      fc.nat(),
      async (history, fromHours, lengthHours, searchHours) => {
        await replay(sql, workspaceId, history, inOrder(history))
        const since = WINDOW.since + BigInt(fromHours) * HOUR
        const until = since + BigInt(lengthHours) * HOUR
        // Its v2 (the failed one) in the window; v1 and the rollback on either side or in it.
        await recordSearch(since - 30n * HOUR + BigInt(searchHours % lengthHours) * HOUR)
        const query = { workspaceId, environmentKeys: ['production'], since, until, bucket: 'week' }
        const comparison = await doraComparison(sql, query as never)
        if (!comparison) throw new Error('production has deployments')
        const previous = await rowOf(2n * since - until, since)
        expect(comparison.previous.row).toEqual(previous as never)
        const window = await rowOf(since, until)
        const apps = Object.fromEntries(comparison.applications.map((a) => [a.app, a]))
        for (const app of ['api', 'search']) {
          const alone = await rowOf(since, until, app)
          if (alone?.deployments === 0) expect(apps[app]).toBeUndefined()
          else expect(apps[app]?.row).toEqual(alone as never)
        }
        const total = comparison.applications.reduce((sum, a) => sum + a.row.deployments, 0)
        expect(total).toBe(window?.deployments as number)
        if (comparison.previous.row.deployments > 0) reached.previousDeployments++
        if (comparison.applications.some((a) => a.row.failed > 0)) reached.failedApplications++
        if (comparison.applications.some((a) => a.row.leadCommits > 0)) reached.leadCommits++
      },
    ),
    // A seed of its own by default, so the check below that the runs reached each case is not
    // left to chance; DORA_HISTORY_SEED=random explores afresh.
    {
      numRuns: Number(process.env.DORA_HISTORY_RUNS ?? 30),
      ...(process.env.DORA_HISTORY_SEED === 'random'
        ? {}
        : { seed: Number(process.env.DORA_HISTORY_SEED ?? 20261125) }),
    },
  )
  for (const [what, times] of Object.entries(reached)) {
    expect({ what, reached: times > 2 }).toEqual({ what, reached: true })
  }
}, 600_000)

test('an app filter keeps only its application; an unknown environment answers nothing', async () => {
  const query = {
    workspaceId,
    environmentKeys: ['production'],
    since: WINDOW.since,
    until: WINDOW.until,
    bucket: 'week' as const,
  }
  await emptyRecordedTables(sql)
  await recordSearch(WINDOW.since)
  const filtered = await doraComparison(sql, { ...query, appKey: 'search' })
  expect(filtered?.applications.map((a) => [a.app, a.repository])).toEqual([
    ['search', 'acme/search'],
  ])
  expect(await doraComparison(sql, { ...query, environmentKeys: ['nowhere'] })).toBeUndefined()
})
