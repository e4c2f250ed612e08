// `bun run bench:drain`: the worker's drain on issue 25's live shape (300 applications × 4
// environments × 20 repositories, deployedAt omitted, each deployment the newest of its stream)
// at three sizes stored, at concurrency 1 and 2, and at 1M with a snapshot held open for the
// whole drain. Ratios are to the empty database of the same run. Writes the `drain` section of
// docs/benchmarks.md.
//
// One drain moves by 10 to 15 % from the next on a quiet 2-core host, as much as the effects
// measured. So each variant drains `BENCH_DRAIN_ROUNDS` times (3), the variants taking turns in a
// rotating order, and the report gives each one's median; a seeded size first drains once
// unmeasured, since a workspace at a million deployments has its indexes in memory and the first
// drain after seeding would pay to read them.
import { createSql } from '@shiplog/db/client'
import { seedDeployments } from '@shiplog/db/testing/seed-deployments'
import { stopTestServer, testServer } from '@shiplog/db/testing/test-database'
import { writeSection } from '../benchmarks-file.ts'
import { type BenchDatabase, createBenchDatabase } from '../read/database.ts'
import { type LiveDrain, measureLiveDrain } from './drain.ts'
import { type ComparedDrain, renderDrain } from './report.ts'
import { type DrainVariant, drainPlan } from './rounds.ts'
import { LIVE_SHAPE, liveStreams } from './shape.ts'

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

async function seededDatabase(stored: number): Promise<BenchDatabase> {
  const database = await createBenchDatabase(server.url)
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
  return database
}

async function drainOnce(
  database: BenchDatabase,
  variant: Omit<DrainVariant, 'comparison'> & { jobs: number },
): Promise<LiveDrain> {
  const streams = await liveStreams(database.sql, database.workspaceId)
  const drain = await measureLiveDrain(database.url, streams, database.workspaceId, variant)
  // Autovacuum may be off: the next drain starts from vacuumed tables, as the first did.
  await database.sql.unsafe(
    'vacuum analyze deployment_cells, deployment_counts, deployment_inbox, deployments',
  )
  await database.sql.unsafe('checkpoint')
  return drain
}

const results: { stored: number; drains: ComparedDrain[] }[] = []
try {
  for (const stored of sizes) {
    const drains: ComparedDrain[] = []
    // The empty database would not stay empty after a drain: each drain gets a new one. A seeded
    // size keeps its database, so its later drains find up to a few hundred thousand more stored,
    // which can only lower its ratios.
    let kept: BenchDatabase | undefined
    try {
      if (stored > 0) {
        log(`seeding ${stored.toLocaleString('en')} deployments`)
        kept = await seededDatabase(stored)
        await drainOnce(kept, { jobs: WARM_UP_JOBS, concurrency: 2, holdSnapshot: false })
      }
      for (const variant of drainPlan(rounds, stored === 1_000_000)) {
        const database = kept ?? (await seededDatabase(0))
        try {
          const drain = await drainOnce(database, { ...variant, jobs })
          log(
            `  ${stored.toLocaleString('en')} stored, concurrency ${variant.concurrency}${variant.holdSnapshot ? ', snapshot held' : ''}: ${Math.round(drain.perSecond)} recorded/s, ${Math.round(drain.walBytesPerDeployment)} B of WAL and ${drain.missedPagesPerDeployment.toFixed(2)} pages missed each`,
          )
          drains.push({ ...drain, comparison: variant.comparison })
        } finally {
          if (!kept) await database.close(false)
        }
      }
      results.push({ stored, drains })
    } finally {
      await kept?.close(false)
    }
  }
  const markdown = renderDrain(results, {
    postgres: `PostgreSQL ${version}, autovacuum ${autovacuum}`,
    jobs,
    rounds,
  })
  console.log(`\n${markdown}\n`)
  await writeSection('drain', markdown)
  log('wrote the drain section of docs/benchmarks.md')
} finally {
  await stopTestServer()
}
