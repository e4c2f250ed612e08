// `bun run bench:drain`: the worker's drain on issue 25's live shape (300 applications × 4
// environments × 20 repositories, deployedAt omitted, each deployment the newest of its stream)
// at three sizes stored, at concurrency 1 and 2, and at 1M with a snapshot held open for the
// whole drain. Ratios are to the empty database of the same run. Writes the `drain` section of
// docs/benchmarks.md.
//
// One drain moves by 10 to 15 % from the next on a quiet 2-core host, as much as the effects
// measured. So each variant drains `BENCH_DRAIN_ROUNDS` times (3), the variants taking turns in a
// rotating order, and the report gives each one's median. Every drain starts from a copy of its
// size's seeded database, warmed by an unmeasured drain: a workspace at a million deployments has
// its indexes in memory, and a drain into the database the last one grew would measure a larger
// size than the one named.
import { createSql } from '@shiplog/db/client'
import { stopTestServer, testServer } from '@shiplog/db/testing'
import { writeSection } from '../benchmarks-file.ts'
import { copyOf, type DrainDatabase, seedPattern } from './copies.ts'
import { measureLiveDrain } from './drain.ts'
import { type ComparedDrain, renderDrain } from './report.ts'
import { type DrainVariant, drainPlan } from './rounds.ts'

const sizes = (process.env.BENCH_DRAIN_SIZES ?? '0,1000000,5000000').split(',').map(Number)
const jobs = Number(process.env.BENCH_DRAIN_JOBS ?? 100_000)
const rounds = Number(process.env.BENCH_DRAIN_ROUNDS ?? 3)
const WARM_UP_JOBS = 20_000
const log = (message: string) => console.log(`[bench:drain] ${message}`)

const server = await testServer()
const probe = createSql(server.url, { applicationName: 'shiplog-bench', maxConnections: 1 })
const [{ server_version: version } = { server_version: '?' }] = await probe`show server_version`
const [{ autovacuum } = { autovacuum: '?' }] = await probe`show autovacuum`
await probe.end()

// Autovacuum may be off: the measured drain starts from vacuumed tables, and after a checkpoint,
// so it pays for none of the pages the warm-up dirtied.
async function settle(database: DrainDatabase): Promise<void> {
  await database.sql.unsafe(
    'vacuum analyze deployment_cells, deployment_counts, deployment_inbox, deployments',
  )
  await database.sql.unsafe('checkpoint')
}

const results: { stored: number; drains: ComparedDrain[] }[] = []
try {
  for (const stored of sizes) {
    log(`seeding ${stored.toLocaleString('en')} deployments`)
    const pattern = await seedPattern(server.url, stored)
    const drains: ComparedDrain[] = []
    try {
      for (const variant of drainPlan(rounds, stored === 1_000_000)) {
        const database = await copyOf(server.url, pattern)
        try {
          const drainInto = (options: Omit<DrainVariant, 'comparison'> & { jobs: number }) =>
            measureLiveDrain(database.url, pattern.streams, database.workspaceId, options)
          await drainInto({ jobs: WARM_UP_JOBS, concurrency: 2, holdSnapshot: false })
          await settle(database)
          const drain = await drainInto({ ...variant, jobs })
          log(
            `  ${stored.toLocaleString('en')} stored, concurrency ${variant.concurrency}${variant.holdSnapshot ? ', snapshot held' : ''}: ${Math.round(drain.perSecond)} recorded/s, ${Math.round(drain.walBytesPerDeployment)} B of WAL and ${drain.missedPagesPerDeployment.toFixed(2)} pages missed each`,
          )
          drains.push({ ...drain, comparison: variant.comparison })
        } finally {
          await database.drop()
        }
      }
      results.push({ stored, drains })
    } finally {
      await pattern.drop()
    }
  }
  const markdown = renderDrain(results, {
    postgres: `PostgreSQL ${version}, autovacuum ${autovacuum}`,
    jobs,
    rounds,
    warmUpJobs: WARM_UP_JOBS,
  })
  console.log(`\n${markdown}\n`)
  await writeSection('drain', markdown)
  log('wrote the drain section of docs/benchmarks.md')
} finally {
  await stopTestServer()
}
