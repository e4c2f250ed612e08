// `bun run bench:dora` (and the last part of `bun run bench`): seeds one workspace with two years
// of deployments and their commits, then times GET /v1/metrics/dora over one year of one
// environment against GET /v1/deployments?limit=50 in the same rounds, and writes the DORA section
// of docs/benchmarks.md. DATABASE_URL picks the server, as for tests.
import { writeSection } from '../benchmarks-file.ts'
import { runOnBenchDatabase } from '../read/bench-run.ts'
import { waitForQuietHost } from '../read/host-cpu.ts'
import { timeEndpoints } from '../read/timing.ts'
import { timeGaugeComputation } from './gauges.ts'
import { doraEndpoints, doraPlanFrom } from './plan.ts'
import { renderDoraMarkdown } from './report.ts'

const plan = doraPlanFrom(process.env)
const log = (message: string) => console.log(`[bench:dora] ${message}`)

await runOnBenchDatabase(plan.keepDatabase, log, async ({ database, setting, startApi }) => {
  log(
    `seeding ${plan.deployments.toLocaleString('en-US')} deployments over ${plan.days} days, ${plan.commitsPerDeployment} commits each`,
  )
  const seeded = await database.seedAfresh(plan.deployments, {
    days: plan.days,
    commitsPerDeployment: plan.commitsPerDeployment,
  })
  log(
    `  seeded in ${seeded.seedSeconds.toFixed(0)} s, vacuumed in ${seeded.vacuumSeconds.toFixed(0)} s`,
  )
  const api = await startApi()
  const endpoints = await doraEndpoints(database.sql, database.workspaceId)
  const quietWaitSeconds = await waitForQuietHost(0.25, plan.quietWaitSeconds * 1000)
  const run = await timeEndpoints(api.client, endpoints.list, plan, api.countConnections)
  for (const timing of run.timings)
    log(
      timing.error
        ? `    FAILED  ${timing.label}`
        : `  ${timing.medianMs.toFixed(1).padStart(8)} ms (${timing.minMs.toFixed(1)}–${timing.maxMs.toFixed(1)})  ${timing.label}`,
    )
  const gauges = await timeGaugeComputation(database.sql, 7, 50)
  log(
    `  ${gauges.medianMs.toFixed(1).padStart(8)} ms (${gauges.minMs.toFixed(1)}–${gauges.maxMs.toFixed(1)})  the worker's DORA gauges, every workspace`,
  )
  const markdown = renderDoraMarkdown({
    date: new Date().toISOString().slice(0, 10),
    ...setting,
    plan,
    seeded,
    quietWaitSeconds,
    window: endpoints.window,
    run,
    gauges,
  })
  console.log(`\n${markdown}`)
  await writeSection('dora', markdown)
  log('wrote the DORA section of docs/benchmarks.md')
  if (run.timings.some((timing) => timing.error)) process.exitCode = 1
})
