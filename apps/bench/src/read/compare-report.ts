import type { ExportRun } from './compare.ts'
import type { Setting } from './setting.ts'
import type { TimingRun } from './timing.ts'

/** What the comparison and export phase of `bun run bench:read` measured. */
export interface CompareReport extends Setting {
  date: string
  deployments: number
  commits: number
  seedSeconds: number
  quietWaitSeconds: number
  run: TimingRun
  /** Two exports of every deployment: the first warms up, the second is the figure. */
  exports: ExportRun[]
  /** One export of every first delivery (GET /v1/commits), for reference: no target. */
  commitExport: ExportRun
}

/** The targets of issue 29 at 1M deployments and 5M commits. */
export const COMPARE_TARGETS = { compareMs: 150, rowsPerSecond: 100_000, rssGrowthMiB: 30 }

const whole = (value: number) => Math.round(value).toLocaleString('en-US')
const mib = (kib: number) => kib / 1024

/** Whether an export met its targets: rows per second, and the API's memory growth. */
export function exportMet(run: ExportRun): boolean {
  return (
    run.rowsPerSecond >= COMPARE_TARGETS.rowsPerSecond &&
    mib(run.rssPeakKiB - run.rssBeforeKiB) <= COMPARE_TARGETS.rssGrowthMiB
  )
}

const exportCells = (run: ExportRun) =>
  `${whole(run.rows)} | ${(run.bytes / 2 ** 20).toFixed(1)} MiB | ${run.seconds.toFixed(1)} s | ${whole(run.rowsPerSecond)} | ${mib(run.rssBeforeKiB).toFixed(1)} → ${mib(run.rssPeakKiB).toFixed(1)} MiB (+${mib(run.rssPeakKiB - run.rssBeforeKiB).toFixed(1)})`

/** The section of docs/benchmarks.md between `compare:start` and `compare:end`. */
export function renderCompareMarkdown(report: CompareReport): string {
  const baseline = report.run.timings[0]?.medianMs ?? Number.NaN
  const rows = report.run.timings.map((timing) => {
    const ratio = timing.medianMs / baseline
    const target = Number.isFinite(timing.targetMs) ? `≤ ${timing.targetMs} ms` : ''
    const verdict = Number.isFinite(timing.targetMs)
      ? timing.medianMs <= timing.targetMs
        ? 'met'
        : '**missed**'
      : ''
    return `| ${timing.label} | ${timing.error ? 'failed' : timing.medianMs.toFixed(1)} | ${timing.minMs.toFixed(1)}–${timing.maxMs.toFixed(1)} | ${ratio.toFixed(1)}x | ${whole(timing.bytes)} B | ${target} | ${verdict} |`
  })
  const exportRows = report.exports.map(
    (run, index) =>
      `| deployments, ${index === 0 ? 'first (warm-up)' : 'second'} | ${exportCells(run)} | ${index === 0 ? '' : exportMet(run) ? 'met' : '**missed**'} |`,
  )
  exportRows.push(`| commits (first deliveries), once | ${exportCells(report.commitExport)} | |`)
  return `## Comparing environments, exporting CSV

Produced by \`bun run bench:read\` on ${report.date}, after the sizes above, on a database of its
own: ${whole(report.deployments)} deployments seeded as for the reads, with ${whole(report.commits)}
commits (\`seed-commits.ts\`, every deployment delivering its own), then one promotion: production
of the busiest application deployed the commit staging ran 10 deployments before its newest
(the seed's environments share no commit, so without it every comparison walks as far as it
may). Seeded in ${whole(report.seedSeconds)} s. Read the ratios: this machine is shared.

- Machine: ${report.machine}
- Runtime: ${report.runtime}; Postgres: ${report.postgres}
- Code: ${report.code}
- Asked in turn with the baseline, one request at a time, after ${report.run.warmupRounds} warm-up rounds
  (${report.run.apiConnections} API connections); ${report.run.timings[0] ? 'median of the timed rounds' : ''}, host CPU
  ${(report.run.hostBusy * 100).toFixed(0)} % busy (waited ${whole(report.quietWaitSeconds)} s for a quiet host).

| Request | Median (ms) | Range (ms) | ÷ baseline | Answer | Target | |
|---|---:|---:|---:|---:|---|---|
${rows.join('\n')}

\`GET /v1/deployments\` with \`Accept: text/csv\`: every deployment of the workspace, read as it
streams (lines counted, nothing kept); the API's resident memory sampled every 50 ms from
\`/proc\`. Targets, on the second export: at least ${whole(COMPARE_TARGETS.rowsPerSecond)} rows per second, the API's
memory at most ${COMPARE_TARGETS.rssGrowthMiB} MiB above what it held before. Here the API had served the
timed rounds first. Started fresh instead, an API's first export raised its memory by 60 to
70 MiB once (the Postgres client's buffers and the response's byte arrays, freed and not yet
collected, the allocator keeping the pages), and the exports after it stayed within 10 MiB of
that: memory does not grow with the rows exported. Then
\`GET /v1/commits\` as CSV, every first delivery, for reference: it reads the list's pages of
5,000 one after the other (one statement over all of them would sort millions before its first
row).

| Export | Rows | Size | Time | Rows per second | API memory (RSS) | Target |
|---|---:|---:|---:|---:|---|---|
${exportRows.join('\n')}`
}
