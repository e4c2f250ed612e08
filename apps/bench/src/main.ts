// The ingest half of `bun run bench`: the API's ingest throughput and latency against a
// batch-size-1 baseline in the same run, the worker's drain rate, and the API's peak memory; writes
// docs/benchmarks.md but its read section (`bun run bench:read`, read/main.ts, runs after this).
import { cpus, release, totalmem } from 'node:os'
import { createSql } from '@shiplog/db/client'
import { stopTestServer, testServer } from '@shiplog/db/testing'
import { writeIngestPart } from './benchmarks-file.ts'
import { measureDrain } from './drain.ts'
import { type IngestPlan, measureIngest } from './ingest.ts'
import { type BenchReport, renderMarkdown, renderTable } from './report.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
const drainJobs = Number(process.env.BENCH_DRAIN_JOBS ?? 50_000)
const plan: IngestPlan = {
  port: 3900,
  saturationConnections: 100,
  saturationSeconds: Number(process.env.BENCH_SECONDS ?? 10),
  pacedRate: 2_000,
  pacedSeconds: Number(process.env.BENCH_SECONDS ?? 10),
  apiRuntimeFlags: process.env.BENCH_API_FLAGS?.split(' ').filter(Boolean),
}
const BASELINE = { ENQUEUE_BATCH_SIZE: '1', ENQUEUE_MAX_IN_FLIGHT: '10' }
const BATCHED = {}

const log = (message: string) => console.log(`[bench] ${message}`)

const server = await testServer()
const probe = createSql(server.url, { applicationName: 'shiplog-bench', maxConnections: 1 })
const [{ server_version: postgresVersion } = { server_version: '?' }] =
  await probe`show server_version`
await probe.end()

const report: BenchReport = {
  date: new Date().toISOString().slice(0, 10),
  command: 'bun run bench',
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Linux ${release()}`,
  runtime: `Bun ${process.versions.bun}`,
  postgres: `PostgreSQL ${postgresVersion}`,
  rounds: [],
  drain: {
    batched: { jobs: 0, seconds: 0, perSecond: 0, recorded: 0 },
    baseline: { jobs: 0, seconds: 0, perSecond: 0, recorded: 0 },
  },
  settings: {
    saturationConnections: plan.saturationConnections,
    saturationSeconds: plan.saturationSeconds,
    pacedRate: plan.pacedRate,
    pacedSeconds: plan.pacedSeconds,
  },
}

try {
  for (let round = 1; round <= rounds; round++) {
    log(`round ${round}/${rounds}: baseline (batch size 1)`)
    const baseline = await measureIngest(BASELINE, plan)
    log(
      `  ${Math.round(baseline.saturation.acceptedPerSecond)} accepted/s, p99 ${baseline.paced.latencyMs.p99} ms at ${plan.pacedRate}/s`,
    )
    log(`round ${round}/${rounds}: batched (defaults)`)
    const batched = await measureIngest(BATCHED, plan)
    log(
      `  ${Math.round(batched.saturation.acceptedPerSecond)} accepted/s, p99 ${batched.paced.latencyMs.p99} ms at ${plan.pacedRate}/s`,
    )
    report.rounds.push({ baseline, batched })
  }
  log(`drain: ${drainJobs} queued deployments, worker defaults`)
  report.drain.batched = await measureDrain(drainJobs, {})
  log(`  ${Math.round(report.drain.batched.perSecond)} recorded/s`)
  const baselineJobs = Math.max(1_000, Math.round(drainJobs / 10))
  log(`drain: ${baselineJobs} queued deployments, worker batch size 1`)
  report.drain.baseline = await measureDrain(baselineJobs, { WORKER_BATCH_SIZE: '1' })
  log(`  ${Math.round(report.drain.baseline.perSecond)} recorded/s`)

  console.log(`\n${renderTable(report)}\n`)
  await writeIngestPart(renderMarkdown(report))
  log('wrote docs/benchmarks.md')
} finally {
  await stopTestServer()
}
