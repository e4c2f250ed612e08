import { afterAll, beforeAll, expect, test } from 'bun:test'
import { nameKey } from '@shiplog/schema'
import fc from 'fast-check'
import { createSql, type Sql, type Tx } from '../client.ts'
import type { DeploymentJob } from '../deployment-job.ts'
import { recordDeployments } from '../queries/record-deployments.ts'
import { ensureWorkspace } from '../queries/workspaces.ts'
import { bruteForce, recorded } from '../testing/frequency-oracle.ts'
import { DAY, resolveWindow, scenario } from '../testing/frequency-scenarios.ts'
import { type Content, emptyRecordedTables, jobId, toJob } from '../testing/recorded-jobs.ts'
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts'
import { deploymentFrequency } from './deployment-frequency.ts'

// deploymentFrequency reads whole days and weeks from the read model and part-days from the
// deployments. Here it must agree with a count done the slow way, in TypeScript, from the jobs
// the test recorded: for random deployments and random windows, aligned or not, days or weeks,
// across 1970 and at both ends of the years a client can send.

let database: TestDatabase
let sql: Sql
let workspaceIds: [string, string]
beforeAll(async () => {
  database = await createTestDatabase()
  sql = createSql(database.url, { applicationName: 'frequency-test', maxConnections: 4 })
  workspaceIds = [(await ensureWorkspace(sql, 'alpha')).id, (await ensureWorkspace(sql, 'beta')).id]
})
afterAll(async () => {
  await sql?.end()
  await database?.drop()
})

test('property: deploymentFrequency equals a count of the recorded deployments, bucket by bucket', async () => {
  const reached = {
    windows: 0,
    weeks: 0,
    unaligned: 0,
    beforeEpoch: 0,
    nonZero: 0,
    zeroBuckets: 0,
    repeats: 0,
  }
  await fc.assert(
    fc.asyncProperty(scenario, async ({ batches, strays, windows }) => {
      await emptyRecordedTables(sql)
      const all: { job: DeploymentJob; content: Content }[] = []
      const delivered = [...batches, strays].map((items) =>
        items.map(({ content, repeat, rank }) => {
          const earlier = repeat ? all[repeat.ref % Math.max(all.length, 1)] : undefined
          const next = !earlier
            ? { job: toJob(jobId(rank, all.length), content, workspaceIds), content }
            : repeat?.sameId
              ? earlier
              : {
                  job: toJob(jobId(rank, all.length), earlier.content, workspaceIds),
                  content: earlier.content,
                }
          if (earlier) reached.repeats++
          all.push(next)
          return next
        }),
      )
      for (const items of delivered) {
        if (items.length === 0) continue
        await sql.begin((tx: Tx) =>
          recordDeployments(
            tx,
            items.map(({ job }) => job),
          ),
        )
      }
      const model = recorded(delivered)
      for (const draw of windows) {
        const query = resolveWindow(
          draw,
          all.map(({ content }) => content),
        )
        if (!query) continue
        const actual = await deploymentFrequency(sql, {
          workspaceId: workspaceIds[query.workspace],
          environmentKey: nameKey(query.environment),
          bucket: query.unit,
          since: query.since,
          until: query.until,
        })
        const expected = bruteForce(model, query)
        expect({ query, actual }).toEqual({ query, actual: expected })
        reached.windows++
        if (query.unit === 'week') reached.weeks++
        if (query.since % DAY !== 0n || query.until % DAY !== 0n) reached.unaligned++
        if (query.since < 0n) reached.beforeEpoch++
        if (expected.totals.some((n) => n > 0)) reached.nonZero++
        if (expected.applications.some(({ counts }) => counts.includes(0))) reached.zeroBuckets++
      }
    }),
    { numRuns: 60 },
  )
  // Not vacuous: windows of every kind, most finding deployments, some with empty buckets.
  for (const [what, times] of Object.entries(reached)) {
    expect({ what, reached: times > 20 }).toEqual({ what, reached: true })
  }
}, 60_000)
