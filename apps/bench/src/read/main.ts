// `bun run bench:read` (and the second half of `bun run bench`): seeds one database afresh at each of
// BENCH_READ_SIZES, times every read endpoint of the real API at each size, and writes the read
// section of docs/benchmarks.md. Settings: plan.ts; DATABASE_URL picks the server, as for tests.
import { stopTestServer, testServer } from '@shiplog/db/testing/test-database'
import { writeSection } from '../benchmarks-file.ts'
import { type BenchApi, startApi } from './api.ts'
import { type BenchDatabase, createBenchDatabase } from './database.ts'
import { chooseEndpoints } from './endpoints.ts'
import { waitForQuietHost } from './host-cpu.ts'
import { cleanUpOnInterrupt } from './interrupt.ts'
import { readPlanFrom } from './plan.ts'
import {
  anyFailed,
  type ReadReport,
  renderReadMarkdown,
  renderReadTable,
  type SizeResult,
  sizeName,
} from './report.ts'
import { describeSetting } from './setting.ts'
import { measureStorage } from './storage.ts'
import { timeEndpoints } from './timing.ts'

const plan = readPlanFrom(process.env)
const log = (message: string) => console.log(`[bench:read] ${message}`)

/** Grows the database to `size`, waits for a quiet host, times every endpoint, sizes the tables. */
async function measureSize(
  database: BenchDatabase,
  api: BenchApi,
  size: number,
): Promise<SizeResult> {
  log(`${sizeName(size)}: seeding, then vacuum analyze`)
  const seeded = await database.seedAfresh(size)
  log(
    `  seeded in ${seeded.seedSeconds.toFixed(0)} s, vacuumed in ${seeded.vacuumSeconds.toFixed(0)} s`,
  )
  const quietWaitSeconds = await waitForQuietHost(0.25, plan.quietWaitSeconds * 1000)
  const endpoints = await chooseEndpoints(database.sql, database.workspaceId, api.client)
  const run = await timeEndpoints(api.client, endpoints, plan, api.countConnections)
  const storage = await measureStorage(database.sql)
  if (storage.deployments !== size)
    throw new Error(`expected ${size} deployments, the database holds ${storage.deployments}`)
  log(
    `  waited ${quietWaitSeconds.toFixed(0)} s for a quiet host; ${run.warmupRounds} warm-up rounds (${run.apiConnections} API connections), ${plan.samples} timed, host CPU ${(run.hostBusy * 100).toFixed(0)} % busy`,
  )
  for (const timing of run.timings)
    log(
      timing.error
        ? `    FAILED  ${timing.label}`
        : `  ${timing.medianMs.toFixed(1).padStart(8)} ms (${timing.minMs.toFixed(1)}–${timing.maxMs.toFixed(1)})  ${timing.label}`,
    )
  log(`  ${storage.bytesPerDeployment.toFixed(0)} B per deployment`)
  return { size, ...seeded, quietWaitSeconds, run, storage }
}

const server = await testServer()
const database = await createBenchDatabase(server.url)
let api: BenchApi | undefined
cleanUpOnInterrupt(async () => {
  await api?.process.stop()
  await database.close(plan.keepDatabase)
  await stopTestServer()
}, log)
try {
  const setting = await describeSetting(
    database.sql,
    !process.env.DATABASE_URL,
    new URL(server.url).host,
  )
  const report: ReadReport = {
    date: new Date().toISOString().slice(0, 10),
    command: 'bun run bench:read',
    ...setting,
    plan,
    results: [],
  }
  log(`sizes ${plan.sizes.map(sizeName).join(', ')} on ${report.postgres}; ${report.code}`)
  api = await startApi(database)
  for (const size of plan.sizes) report.results.push(await measureSize(database, api, size))
  console.log(`\n${renderReadTable(report)}\n`)
  console.log(JSON.stringify(report))
  await writeSection('read', renderReadMarkdown(report))
  log('wrote the read section of docs/benchmarks.md')
  if (anyFailed(report)) {
    log('FAILED: some endpoints did not answer 200 with data; see the table')
    process.exitCode = 1
  }
} finally {
  await api?.process.stop()
  await database.close(plan.keepDatabase)
  await stopTestServer()
}
