import type { Setting } from '../read/setting.ts'
import type { TimingRun } from '../read/timing.ts'
import type { GaugeTiming } from './gauges.ts'
import { DORA_TARGET_MS, type DoraPlan, type DoraWindow } from './plan.ts'

/** Everything one `bun run bench:dora` measured. */
export interface DoraReport extends Setting {
  date: string
  plan: DoraPlan
  seeded: { seedSeconds: number; vacuumSeconds: number }
  quietWaitSeconds: number
  window: DoraWindow
  run: TimingRun
  gauges: GaugeTiming
}

const whole = (value: number) => Math.round(value).toLocaleString('en-US')

/** The DORA section of docs/benchmarks.md (between its markers). */
export function renderDoraMarkdown(report: DoraReport): string {
  // The first request is the one with the target; the baseline is named, wherever it stands.
  const [dora] = report.run.timings
  const baseline = report.run.timings.find((timing) => timing.label.endsWith('(baseline)'))
  if (!dora || !baseline) throw new Error('nothing was measured')
  const others = report.run.timings.filter((timing) => timing !== dora && timing !== baseline)
  const failed = report.run.timings.filter((timing) => timing.error)
  const ratio = dora.medianMs / baseline.medianMs
  const verdict = failed.length
    ? `**failed**: ${failed.map((timing) => timing.label).join(', ')} did not answer 200 with data`
    : dora.medianMs <= DORA_TARGET_MS
      ? 'met'
      : '**missed**'
  const target = (timing: (typeof report.run.timings)[number]) =>
    Number.isFinite(timing.targetMs)
      ? `≤ ${timing.targetMs} ms | ${timing.medianMs <= timing.targetMs ? 'met' : '**missed**'}`
      : ' | '
  const row = (timing: (typeof report.run.timings)[number]) =>
    timing.error
      ? `| ${timing.label} | failed | | | | |`
      : `| ${timing.label} | ${timing.medianMs.toFixed(1)} | ${timing.minMs.toFixed(1)}–${timing.maxMs.toFixed(1)} | ${whole(timing.bytes)} B | ${target(timing)} |`
  return `## DORA keys

Produced by \`bun run bench:dora\` on ${report.date} (\`bun run bench\` runs it last). Same caution
as above: read the ratio to the baseline measured in the same rounds.

- Machine: ${report.machine}
- Runtime: ${report.runtime}; Postgres: ${report.postgres}
- Code: ${report.code}
- Data: ${whole(report.plan.deployments)} deployments over the last ${report.plan.days} days,
  seeded as for the reads (\`seed-deployments.ts\`), and ${report.plan.commitsPerDeployment} commits each
  (\`seed-commits.ts\`: ${whole(report.plan.deployments * report.plan.commitsPerDeployment)} commits, committed in the hours
  before their deployment, one deployment in a hundred reverting a commit of the third
  deployment before it). The deployments go through the triggers as the worker's batches do;
  the commit lists are bulk-loaded, and the DORA facts then rebuilt from the view
  \`bun run db:verify\` checks the triggers against (through the triggers, 5M commits took
  about 8 minutes more).
  Seeded in ${whole(report.seeded.seedSeconds)} s, then \`vacuum analyze\` (${whole(report.seeded.vacuumSeconds)} s).
- Request: \`GET /v1/metrics/dora\` for ${report.window.environment} from ${report.window.since} to
  ${report.window.until} (weekly series): ${whole(report.window.deployments)} deployments and
  ${whole(report.window.commits)} commits in the window. Asked in turn with the baseline, one
  request at a time, after at least ${report.plan.warmups} warm-up rounds (${report.run.warmupRounds} ran, for
  ${report.run.apiConnections} API connections); ${report.plan.samples} timed rounds, host CPU
  ${(report.run.hostBusy * 100).toFixed(0)} % busy (waited ${whole(report.quietWaitSeconds)} s for a quiet host).

| Request | Median (ms) | Range (ms) | Answer | Target | |
|---|---:|---:|---:|---|---|
${row(dora)}
${row(baseline)}
${others.map(row).join('\n')}

DORA / baseline: ${ratio.toFixed(1)}x. Target: the DORA request ≤ ${DORA_TARGET_MS} ms median: ${verdict}.
The rows without a target show that a page of the list and a receipt, which carry each
deployment's change type and failure, stay near the baseline with commits stored, and what the
dashboard's other pages cost. Pages are read with the session cookie of one sign-in.

The worker's DORA gauges (\`DORA_METRICS_ENABLED\`, docs/operations.md), computed as its timer
does, in-process after the requests: every workspace, both environment sets, 7 and 28 days, and
per application for the busiest ${report.gauges.topApplications} (${whole(report.gauges.groups)} figure sets):
median ${report.gauges.medianMs.toFixed(1)} ms (${report.gauges.minMs.toFixed(1)}–${report.gauges.maxMs.toFixed(1)}) over ${report.gauges.runs} runs, ${(report.gauges.medianMs / dora.medianMs).toFixed(2)}x the one-year DORA request above. One replica computes them every
\`DORA_METRICS_INTERVAL_SECONDS\` (300 s by default); a scrape never does.
`
}
