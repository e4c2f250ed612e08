// `bun run bench:drain`: the worker's drain on issue 25's live shape (300 applications × 4
// environments × 20 repositories, deployedAt omitted, each deployment the newest of its stream)
// at three sizes stored, at concurrency 1 and 2, and at 1M with a snapshot held open for the
// whole drain. Ratios are to the empty database of the same run. Writes the `drain` section of
// docs/benchmarks.md.
import { createSql } from '@shiplog/db/client'
import { seedDeployments } from '@shiplog/db/testing/seed-deployments'
import { stopTestServer, testServer } from '@shiplog/db/testing/test-database'
import { writeSection } from '../benchmarks-file.ts'
import { createBenchDatabase } from '../read/database.ts'
import { type LiveDrain, measureLiveDrain } from './drain.ts'
import { renderDrain } from './report.ts'
import { LIVE_SHAPE, liveStreams } from './shape.ts'

const sizes = (process.env.BENCH_DRAIN_SIZES ?? '0,1000000,5000000').split(',').map(Number)
const jobs = Number(process.env.BENCH_DRAIN_JOBS ?? 100_000)
const log = (message: string) => console.log(`[bench:drain] ${message}`)

const server = await testServer()
const probe = createSql(server.url, { applicationName: 'shiplog-bench', maxConnections: 1 })
const [{ server_version: version } = { server_version: '?' }] = await probe`show server_version`
const [{ autovacuum } = { autovacuum: '?' }] = await probe`show autovacuum`
await probe.end()

const results: { stored: number; drains: LiveDrain[] }[] = []
try {
  for (const stored of sizes) {
    const database = await createBenchDatabase(server.url)
    try {
      log(`seeding ${stored.toLocaleString('en')} deployments`)
      await seedDeployments(database.sql, {
        workspaceId: database.workspaceId,
        deployments: stored,
        days: 365,
        ...LIVE_SHAPE,
      })
      await database.sql.unsafe('vacuum analyze')
      // Seeding leaves a checkpoint's worth of dirty pages behind: written back during the first
      // drain, they would slow the larger sizes for a reason no live workspace has.
      await database.sql.unsafe('checkpoint')
      const streams = await liveStreams(database.sql, database.workspaceId)
      const drains: LiveDrain[] = []
      const variants = [
        { concurrency: 1, holdSnapshot: false },
        { concurrency: 2, holdSnapshot: false },
        ...(stored === 1_000_000 ? [{ concurrency: 1, holdSnapshot: true }] : []),
      ]
      for (const variant of variants) {
        const drain = await measureLiveDrain(database.url, streams, database.workspaceId, {
          jobs,
          ...variant,
        })
        log(
          `  ${stored.toLocaleString('en')} stored, concurrency ${variant.concurrency}${variant.holdSnapshot ? ', snapshot held' : ''}: ${Math.round(drain.perSecond)} recorded/s`,
        )
        drains.push(drain)
        // Autovacuum may be off: the next drain starts from vacuumed tables, as the first did.
        await database.sql.unsafe(
          'vacuum analyze deployment_cells, deployment_counts, deployment_inbox, deployments',
        )
        await database.sql.unsafe('checkpoint')
      }
      results.push({ stored, drains })
    } finally {
      await database.close(false)
    }
  }
  const markdown = renderDrain(results, {
    postgres: `PostgreSQL ${version}, autovacuum ${autovacuum}`,
    jobs,
  })
  console.log(`\n${markdown}\n`)
  await writeSection('drain', markdown)
  log('wrote the drain section of docs/benchmarks.md')
} finally {
  await stopTestServer()
}
