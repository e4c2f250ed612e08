import type { DrainResult } from './drain.ts'
import type { IngestResult } from './ingest.ts'
import { median } from './read/timing.ts'

/** Everything one `bun run bench` measured, with where and how. */
export interface BenchReport {
  date: string
  command: string
  machine: string
  runtime: string
  postgres: string
  rounds: { baseline: IngestResult; batched: IngestResult }[]
  drain: { batched: DrainResult; baseline: DrainResult }
  settings: {
    saturationConnections: number
    saturationSeconds: number
    pacedRate: number
    pacedSeconds: number
  }
}

const whole = (value: number) => Math.round(value).toLocaleString('en-US')
const ms = (value: number) => `${value.toFixed(1)} ms`
const mb = (kib: number) => `${(kib / 1024).toFixed(0)} MB`
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**')

/** The figures a reader compares against the targets. */
export function summarise(report: BenchReport) {
  const batched = report.rounds.map((round) => round.batched)
  const baseline = report.rounds.map((round) => round.baseline)
  const acceptedBatched = median(batched.map((result) => result.saturation.acceptedPerSecond))
  const acceptedBaseline = median(baseline.map((result) => result.saturation.acceptedPerSecond))
  const ratios = report.rounds.map(
    (round) =>
      round.batched.saturation.acceptedPerSecond / round.baseline.saturation.acceptedPerSecond,
  )
  return {
    acceptedBatched,
    acceptedBaseline,
    ratio: median(ratios),
    p50: median(batched.map((result) => result.paced.latencyMs.p50)),
    p99: median(batched.map((result) => result.paced.latencyMs.p99)),
    baselineP50: median(baseline.map((result) => result.paced.latencyMs.p50)),
    baselineP99: median(baseline.map((result) => result.paced.latencyMs.p99)),
    drain: report.drain.batched.perSecond,
    drainRatio: report.drain.batched.perSecond / report.drain.baseline.perSecond,
    peakKiB: Math.max(...batched.map((result) => result.memory.peakKiB)),
    peakAnonKiB: Math.max(...batched.map((result) => result.memory.anonKiB)),
    peakFileKiB: Math.max(...batched.map((result) => result.memory.fileKiB)),
  }
}

/** The console table. */
export function renderTable(report: BenchReport): string {
  const s = summarise(report)
  const rows = [
    ['accepted req/s at saturation (batched)', whole(s.acceptedBatched), '>= 10,000'],
    ['accepted req/s at saturation (baseline: batch size 1)', whole(s.acceptedBaseline), ''],
    ['ratio batched / baseline (median of rounds)', `${s.ratio.toFixed(1)}x`, '>= 8x'],
    [
      `p50 / p99 at ${report.settings.pacedRate} req/s (batched)`,
      `${ms(s.p50)} / ${ms(s.p99)}`,
      'p99 <= 10 ms',
    ],
    [
      `p50 / p99 at ${report.settings.pacedRate} req/s (baseline)`,
      `${ms(s.baselineP50)} / ${ms(s.baselineP99)}`,
      '',
    ],
    ['worker drain, deployments recorded/s', whole(s.drain), '>= 5,000'],
    ['API peak RSS (batched)', mb(s.peakKiB), '<= 80 MB'],
  ]
  const width = Math.max(...rows.map((row) => (row[0] as string).length))
  return rows
    .map(
      ([label, value, target]) =>
        `${(label as string).padEnd(width)}  ${(value as string).padStart(16)}  ${target}`,
    )
    .join('\n')
}

/** docs/benchmarks.md. */
export function renderMarkdown(report: BenchReport): string {
  const s = summarise(report)
  const roundRows = report.rounds
    .map((round, index) =>
      [
        index + 1,
        whole(round.baseline.saturation.acceptedPerSecond),
        whole(round.batched.saturation.acceptedPerSecond),
        `${(round.batched.saturation.acceptedPerSecond / round.baseline.saturation.acceptedPerSecond).toFixed(1)}x`,
        `${ms(round.baseline.paced.latencyMs.p50)} / ${ms(round.baseline.paced.latencyMs.p99)}`,
        `${ms(round.batched.paced.latencyMs.p50)} / ${ms(round.batched.paced.latencyMs.p99)}`,
        `${mb(round.baseline.memory.peakKiB)} / ${mb(round.batched.memory.peakKiB)}`,
        `${round.baseline.saturation.errors + round.batched.saturation.errors}`,
      ].join(' | '),
    )
    .map((row) => `| ${row} |`)
    .join('\n')
  return `# Benchmarks

Produced by \`${report.command}\` on ${report.date}. Re-run it to refresh this file; the machine
is noisy, so compare the **ratios** measured within one run, not absolute figures across runs.

- Machine: ${report.machine}
- Runtime: ${report.runtime}; Postgres: ${report.postgres} (embedded unless \`DATABASE_URL\`),
  default durability settings (\`fsync\` and \`synchronous_commit\` on)
- Everything runs on this one machine: Postgres, the API process, the worker process and the load
  generator processes share its cores.

## Results

| Measure | Result | Target | |
|---|---:|---|---|
| Accepted (202) requests/s at saturation, batched | ${whole(s.acceptedBatched)} | >= 10,000 | ${verdict(s.acceptedBatched >= 10_000)} |
| Same, baseline (batch size 1) | ${whole(s.acceptedBaseline)} | | |
| Ratio batched / baseline (median of ${report.rounds.length} rounds) | ${s.ratio.toFixed(1)}x | >= 8x | ${verdict(s.ratio >= 8)} |
| p50 / p99 latency at ${report.settings.pacedRate} req/s, batched | ${ms(s.p50)} / ${ms(s.p99)} | p99 <= 10 ms | ${verdict(s.p99 <= 10)} |
| Same, baseline | ${ms(s.baselineP50)} / ${ms(s.baselineP99)} | | |
| Worker drain of ${whole(report.drain.batched.jobs)} queued deployments | ${whole(s.drain)}/s | >= 5,000/s | ${verdict(s.drain >= 5_000)} |
| Same, worker batch size 1 (${whole(report.drain.baseline.jobs)} jobs) | ${whole(report.drain.baseline.perSecond)}/s (batched is ${s.drainRatio.toFixed(1)}x) | | |
| API peak RSS (VmHWM), batched | ${mb(s.peakKiB)} | <= 80 MB | ${verdict(s.peakKiB <= 80 * 1024)} |

Per round (baseline / batched):

| Round | Baseline req/s | Batched req/s | Ratio | Baseline p50 / p99 | Batched p50 / p99 | Peak RSS (baseline / batched) | Errors |
|---|---:|---:|---:|---|---|---|---:|
${roundRows}

## How it is measured

- **Configurations.** *Batched* is the API's default configuration (group commit: up to 500
  requests per commit, at most 2 ms of waiting, 2 commits in flight). *Baseline* is the obvious
  design: \`ENQUEUE_BATCH_SIZE=1\`, one commit per request, as many commits in parallel as the
  connection pool allows (\`ENQUEUE_MAX_IN_FLIGHT=10\`). Both run with request logging on (one JSON
  line per request to stdout, discarded), each against a fresh database.
- **Saturation.** After a 3 s warm-up, autocannon drives \`POST /v1/deployments\` with
  ${report.settings.saturationConnections} keep-alive connections for ${report.settings.saturationSeconds} s from a separate process. Accepted = 202 responses
  per second. Every response was a 202 unless the Errors column says otherwise.
- **Latency.** An open-loop generator (\`apps/bench/src/paced-load.ts\`) sends ${report.settings.pacedRate} requests/s for
  ${report.settings.pacedSeconds} s at evenly spaced intended times and measures each latency from its *intended* send time,
  so a stall cannot hide behind a slowed-down sender (no coordinated omission). Autocannon's own
  rate mode sends each second's quota in bursts, which measures queueing behind the burst instead.
- **Drain.** ${whole(report.drain.batched.jobs)} deployment jobs (10 repositories, 20 apps, 3 environments) are inserted into the
  queue, then a worker process starts with its defaults (batches of 500, 2 in flight); the clock
  runs from its start until every deployment row exists. The jobs are a monorepo's release train:
  each commit goes to every app in every environment, one deployment a millisecond, one in fifty
  redeploying the commit before. (Until 2026-11-23 every job had the same commit and each thousand
  the same instant, which the read model's triggers, ordering each app's deployments in an
  environment, turn into their worst case: see migration 0016.)
- **Memory.** Peak RSS is the kernel's high-water mark (VmHWM) of the API process over the whole
  configuration's run.

## Why the ratio target is missed: where the time goes

The 8x target assumed the batch-size-1 configuration would be the design the issue measured at
about 1,300 requests/s. It is not any more: a deployment's first attempt is a row of the inbox
table (one \`INSERT\`, no queue library's statements), and a batch without Idempotency-Keys is one
\`INSERT\` instead of \`BEGIN\`/\`INSERT\`/\`COMMIT\`. Those changes serve both configurations,
so the unbatched path got faster too (the old design, one queue-library job per request,
measured about 2.3x slower than it in the runs up to 2026-11-28, when it left the benchmark).
Slowing the unbatched path down to flatter the ratio would be gaming the benchmark.

What bounds the batched figure is CPU in the API process, not commits. A one-off profile of the
batched API at saturation (2026-11-22, \`BENCH_API_FLAGS="--cpu-prof-md --cpu-prof-dir=/tmp/prof"
bun run bench\`) put its busy time at: about 26-34% in Bun's own HTTP handling (parsing requests,
writing responses), about 14-15% in postgres.js writing batch payloads to its socket
(\`node:net\`), about 10% in JSON parse and stringify, and the rest spread across our handlers,
none above 3%. A commit costs Postgres about 0.23 ms at the median (single-row insert with fsync
on this machine), and a batch carries about 40 requests, so Postgres is not the limit. The load
generator shares the same two cores. Reaching 8x the unbatched path (about 39,000 requests/s)
would need less per-request work in the API than Elysia's routing plus our auth, rate limit,
validation and JSON handling take on this machine.

## Where the memory goes

At its peak the batched API held ${mb(s.peakFileKiB)} of file-backed pages and ${mb(s.peakAnonKiB)} of private memory.
The file-backed part is the Bun executable's own code, mapped from disk and shared by every Bun
process on the host (the worker too). A one-off profile of the API under saturation (2026-11-22,
\`/proc/<pid>/smaps\` and \`bun:jsc\` heapStats) found the private part to be almost entirely one
allocator arena of the JavaScript engine, which keeps freed pages for reuse at this allocation
rate, while the live heap stayed between 10 and 28 MB. For scale, in the same profile a bare
\`Bun.serve\` that only parses a JSON body peaked at 51 MB under the same load, and the libraries
the API needs add to its idle size: Elysia about 14 MB, the queue's engine about 18 MB, postgres.js about
11 MB (idle API: 59 MB).

Trading speed for memory is one setting: JavaScriptCore sizes its heap from the host's RAM (it
does not see container limits), and \`BUN_JSC_forceRAMSize=67108864\` (64 MiB) brought the peak to
80 MB in that profile at the cost of about 30% of the saturation throughput. We keep the default,
since throughput is what bursts need; give the API a memory limit with headroom above the peak
measured here.
`
}
