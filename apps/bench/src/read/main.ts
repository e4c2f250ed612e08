// `bun run bench:read` (and the second half of `bun run bench`): seeds one database afresh at each of
// BENCH_READ_SIZES, times every read endpoint of the real API at each size, and writes the read
// section of docs/benchmarks.md. Settings: plan.ts; DATABASE_URL picks the server, as for tests.
import { writeSection } from '../benchmarks-file.ts'
import type { BenchApi } from './api.ts'
import { runOnBenchDatabase } from './bench-run.ts'
import { compareEndpoints, promote, timeExport } from './compare.ts'
import { type CompareReport, exportMet, renderCompareMarkdown } from './compare-report.ts'
import type { BenchDatabase } from './database.ts'
import { chooseEndpoints } from './endpoints.ts'
import { waitForQuietHost } from './host-cpu.ts'
import { readPlanFrom } from './plan.ts'
import {
  anyFailed,
  type ReadReport,
  renderReadMarkdown,
  renderReadTable,
  type SizeResult,
  sizeName,
} from './report.ts'
import type { Setting } from './setting.ts'
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

/**
 * The comparison and export phase: a database of `plan.compare` deployments and commits, one
 * promotion, then `/v1/compare` and the pages beside the list's first page, and two CSV exports.
 */
async function measureCompare(
  database: BenchDatabase,
  api: BenchApi,
  setting: Setting,
): Promise<CompareReport> {
  const { deployments, commitsPerDeployment } = plan.compare
  log(`compare: seeding ${sizeName(deployments)} with ${commitsPerDeployment} commits each`)
  const seeded = await database.seedAfresh(deployments, { days: 730, commitsPerDeployment })
  const apps = await promote(database.sql, database.workspaceId)
  const quietWaitSeconds = await waitForQuietHost(0.25, plan.quietWaitSeconds * 1000)
  const run = await timeEndpoints(api.client, compareEndpoints(apps), plan, api.countConnections)
  for (const timing of run.timings)
    log(
      timing.error
        ? `    FAILED  ${timing.label}: ${timing.error}`
        : `  ${timing.medianMs.toFixed(1).padStart(8)} ms (${timing.minMs.toFixed(1)}–${timing.maxMs.toFixed(1)})  ${timing.label}`,
    )
  const exports = []
  for (let round = 0; round < 2; round++) {
    const exported = await timeExport(api.base, database.key, api.process.child.pid as number)
    log(
      `  export: ${exported.rows} rows in ${exported.seconds.toFixed(1)} s (${Math.round(exported.rowsPerSecond)} rows/s), RSS ${Math.round(exported.rssBeforeKiB / 1024)} → ${Math.round(exported.rssPeakKiB / 1024)} MiB`,
    )
    exports.push(exported)
  }
  const commitExport = await timeExport(
    api.base,
    database.key,
    api.process.child.pid as number,
    '/v1/commits',
  )
  log(
    `  commit export: ${commitExport.rows} rows in ${commitExport.seconds.toFixed(1)} s (${Math.round(commitExport.rowsPerSecond)} rows/s)`,
  )
  return {
    date: new Date().toISOString().slice(0, 10),
    ...setting,
    deployments,
    commits: deployments * commitsPerDeployment,
    seedSeconds: seeded.seedSeconds,
    quietWaitSeconds,
    run,
    exports,
    commitExport,
  }
}

await runOnBenchDatabase(plan.keepDatabase, log, async ({ database, setting, startApi }) => {
  const report: ReadReport = {
    date: new Date().toISOString().slice(0, 10),
    command: 'bun run bench:read',
    ...setting,
    plan,
    results: [],
  }
  log(`sizes ${plan.sizes.map(sizeName).join(', ')} on ${report.postgres}; ${report.code}`)
  const api = await startApi()
  for (const size of plan.sizes) report.results.push(await measureSize(database, api, size))
  if (report.results.length > 0) {
    console.log(`\n${renderReadTable(report)}\n`)
    console.log(JSON.stringify(report))
    await writeSection('read', renderReadMarkdown(report))
    log('wrote the read section of docs/benchmarks.md')
    if (anyFailed(report)) {
      log('FAILED: some endpoints did not answer 200 with data; see the table')
      process.exitCode = 1
    }
  }
  if (plan.compare.deployments > 0) {
    const compared = await measureCompare(database, api, setting)
    const markdown = renderCompareMarkdown(compared)
    console.log(`\n${markdown}\n`)
    await writeSection('compare', markdown)
    log('wrote the compare section of docs/benchmarks.md')
    if (compared.run.timings.some((timing) => timing.error)) process.exitCode = 1
    if (!compared.exports.slice(1).every(exportMet))
      log('the export missed a target; see the table')
  }
})
