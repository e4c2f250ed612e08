import { cpus } from 'node:os'
import type { ReadPlan } from './plan.ts'
import type { Setting } from './setting.ts'
import type { Storage } from './storage.ts'
import type { TimingRun } from './timing.ts'

/** What one size measured. */
export interface SizeResult {
  size: number
  seedSeconds: number
  vacuumSeconds: number
  /** How long timing waited for the host to quieten down. */
  quietWaitSeconds: number
  run: TimingRun
  storage: Storage
}

/** Everything one `bun run bench:read` measured, with where and how. */
export interface ReadReport extends Setting {
  date: string
  command: string
  plan: ReadPlan
  results: SizeResult[]
}

/** The targets of the issue, set for 5M deployments. */
export const TARGETS = { atSize: 5_000_000, growth: 3, bytesPerDeployment: 450 }

export const sizeName = (size: number) =>
  size % 1_000_000 === 0
    ? `${size / 1_000_000}M`
    : size % 1_000 === 0
      ? `${size / 1_000}k`
      : size.toLocaleString('en-US')
const ms = (value: number) => (Number.isNaN(value) ? 'failed' : value.toFixed(1))
const whole = (value: number) => Math.round(value).toLocaleString('en-US')
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`

/** One endpoint across sizes: medians, growth, and how it stands against its targets. */
function rowsOf(report: ReadReport) {
  const last = report.results.at(-1)
  if (!last) return []
  return last.run.timings.map((timing, position) => {
    const atSizes = report.results.map((result) => result.run.timings[position])
    const medians = atSizes.map((at) => at?.medianMs ?? Number.NaN)
    const growth = report.results.length > 1 ? timing.medianMs / (medians[0] as number) : Number.NaN
    const failures = report.results.flatMap((result, index) => {
      const error = atSizes[index]?.error
      // One line, no table pipes, short: it sits in a Markdown table cell.
      const brief = error?.replace(/\s+/g, ' ').replaceAll('|', '\\|').slice(0, 160)
      return brief ? [`failed at ${sizeName(result.size)}: ${brief}`] : []
    })
    const problems = [
      ...failures,
      timing.medianMs > timing.targetMs ? `${ms(timing.medianMs)} ms > ${timing.targetMs}` : '',
      growth > TARGETS.growth ? `grows ${growth.toFixed(1)}x` : '',
    ].filter(Boolean)
    return { timing, medians, growth, problems }
  })
}

/** Sizes below the targets' own are measured against them all the same, and say so. */
function targetNote(report: ReadReport): string {
  const largest = report.results.at(-1)?.size ?? 0
  return largest === TARGETS.atSize
    ? ''
    : ` (targets are set for ${sizeName(TARGETS.atSize)}; this run's largest size is ${sizeName(largest)})`
}

/** Whether some endpoint failed at some size. */
export const anyFailed = (report: ReadReport) =>
  report.results.some((result) => result.run.timings.some((timing) => timing.error))

/** The console table. */
export function renderReadTable(report: ReadReport): string {
  const sizes = report.results.map((result) => sizeName(result.size))
  const header = ['endpoint', ...sizes.map((size) => `${size} ms`), 'growth', 'bytes', 'verdict']
  const rows = rowsOf(report).map(({ timing, medians, growth, problems }) => [
    timing.label,
    ...medians.map(ms),
    Number.isNaN(growth) ? '' : `${growth.toFixed(2)}x`,
    whole(timing.bytes),
    problems.length ? `MISSED: ${problems.join(', ')}` : 'met',
  ])
  const storage = report.results.map(
    (result) =>
      `${sizeName(result.size)}: ${whole(result.storage.bytesPerDeployment)} B/deployment (${mib(result.storage.totalBytes)})`,
  )
  const table = [header, ...rows]
  const widths = header.map((_, column) =>
    Math.max(...table.map((row) => row[column]?.length ?? 0)),
  )
  return [
    ...table.map((row) =>
      row
        .map((cell, column) =>
          column === 0 || column === row.length - 1
            ? cell.padEnd(widths[column] as number)
            : cell.padStart(widths[column] as number),
        )
        .join('  ')
        .trimEnd(),
    ),
    `storage: ${storage.join('; ')}${targetNote(report)}`,
  ].join('\n')
}

/** `GET /v1/x?a= (what a is)` as `/v1/x?a=` in code, then the note. */
function labelCell(label: string): string {
  const [request = label, ...note] = label.replace(/^GET /, '').split(' (')
  return note.length ? `\`${request}\` (${note.join(' (')}` : `\`${request}\``
}

function latencyTable(report: ReadReport): string {
  const sizes = report.results.map((result) => sizeName(result.size))
  const first = sizes[0] as string
  const last = sizes.at(-1) as string
  const growthHeader = sizes.length > 1 ? `${last} / ${first}` : 'Growth'
  const lines = [
    `| Endpoint | ${sizes.join(' | ')} | ${growthHeader} | Answer at ${last} | Target | |`,
    `|---|${sizes.map(() => '---:').join('|')}|---:|---:|---|---|`,
  ]
  for (const { timing, medians, growth, problems } of rowsOf(report)) {
    const cells = [
      labelCell(timing.label),
      ...medians.map(ms),
      Number.isNaN(growth) ? '' : `${growth.toFixed(2)}x`,
      `${whole(timing.bytes)} B`,
      `≤ ${timing.targetMs} ms, ≤ ${TARGETS.growth}x`,
      problems.length ? `**missed**: ${problems.join(', ')}` : 'met',
    ]
    lines.push(`| ${cells.join(' | ')} |`)
  }
  return lines.join('\n')
}

function storageTable(report: ReadReport): string {
  const lines = [
    '| Deployments | Shiplog tables in total | Bytes per deployment | Queue bytes per deployment | Target | |',
    '|---:|---:|---:|---:|---|---|',
  ]
  for (const { size, storage } of report.results) {
    const atTarget = size === TARGETS.atSize
    const met = storage.bytesPerDeployment <= TARGETS.bytesPerDeployment
    lines.push(
      `| ${whole(size)} | ${mib(storage.totalBytes)} | ${whole(storage.bytesPerDeployment)} | ${(storage.queueBytes / storage.deployments).toFixed(2)} | ${atTarget ? `≤ ${TARGETS.bytesPerDeployment} B` : ''} | ${atTarget ? (met ? 'met' : '**missed**') : ''} |`,
    )
  }
  lines.push(
    '',
    "The queue (the inbox and its engine's schema) holds a deployment only while it waits: its inbox row is deleted in the transaction that records it. The engine keeps only retries (completed ones deleted after 1 day) and dead letters (30 days). These databases are seeded by SQL, so their queue is empty; under live load it is measured by the sustained-load scenario (docs/scaling.md).",
  )
  return lines.join('\n')
}

function relationTable(storage: Storage): string {
  const lines = [
    '| Relation | Kind | Of table | Size | Bytes per deployment |',
    '|---|---|---|---:|---:|',
  ]
  const perDeployment = (bytes: number) => (bytes / storage.deployments).toFixed(1)
  // The small tables (keys, workspaces, repositories…) are folded into one row.
  const shown = storage.relations.filter((relation) => relation.bytes >= storage.totalBytes / 200)
  const listed = shown.reduce((sum, relation) => sum + relation.bytes, 0)
  for (const relation of shown) {
    lines.push(
      `| \`${relation.name}\` | ${relation.kind} | ${relation.table} | ${mib(relation.bytes)} | ${perDeployment(relation.bytes)} |`,
    )
  }
  const folded = storage.relations.length - shown.length
  const other = storage.totalBytes - listed
  lines.push(
    `| The other ${folded} relations; TOAST, free-space and visibility maps | | | ${mib(other)} | ${perDeployment(other)} |`,
    `| **Total** | | | **${mib(storage.totalBytes)}** | **${perDeployment(storage.totalBytes)}** |`,
  )
  return lines.join('\n')
}

function runTable(report: ReadReport): string {
  const lines = [
    '| Deployments | Seeding | `vacuum analyze` | Waited for a quiet host | Warm-up rounds | API connections | Host CPU busy while timing |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const result of report.results) {
    lines.push(
      `| ${whole(result.size)} | ${result.seedSeconds.toFixed(0)} s | ${result.vacuumSeconds.toFixed(0)} s | ${result.quietWaitSeconds.toFixed(0)} s | ${result.run.warmupRounds} | ${result.run.apiConnections} | ${(result.run.hostBusy * 100).toFixed(0)} % |`,
    )
  }
  return lines.join('\n')
}

/** The read section of docs/benchmarks.md (between its markers). */
export function renderReadMarkdown(report: ReadReport): string {
  const largest = report.results.at(-1)
  if (!largest) throw new Error('nothing was measured')
  const rows = rowsOf(report)
  const missed = rows.filter((row) => row.problems.length > 0)
  const sizes = report.results.map((result) => whole(result.size)).join(', ')
  return `## Reads

Produced by \`${report.command}\` on ${report.date} (\`bun run bench\` runs it after the ingest
part; \`bun run bench:read\` refreshes this section alone). Same caution as above: the machine is
noisy, so read the ratios between sizes rather than the absolute figures.

- Machine: ${report.machine}
- Runtime: ${report.runtime}; Postgres: ${report.postgres}
- Code: ${report.code}
- Sizes: ${sizes} deployments in one workspace, seeded with SQL
  (\`packages/db/src/testing/seed-deployments.ts\`): 50 repositories, 2,000 applications, six
  everyday environments and one (\`disaster-recovery\`) that 1 % of the applications deploy to,
  deployments spread over the last three years and skewed towards the lowest-id applications.
  One database is emptied and seeded afresh at each size, in time order as production receives
  deployments, and \`vacuum analyze\` runs before anything is measured, as autovacuum would have
  by then.
- Requests: the real API process (\`apps/api/src/main.ts\`, default settings, request logs on,
  one process for the whole run) answers over HTTP on this machine, one request at a time,
  keep-alive, with a key whose rate limit is never reached. At each size every endpoint is asked once per round: at least
  ${report.plan.warmups} warm-up rounds (and at least 7 per Postgres connection the API holds, so
  that every connection's prepared statements are past the five custom plans Postgres makes before
  a generic plan may take over), then ${report.plan.samples} timed rounds. A figure is the median of the
  ${report.plan.samples}, from sending the request to the last byte of the answer. Every answer was checked
  to be a 200 holding data (a list with entries, a recorded receipt, a non-zero count).
- Forms: the costliest realistic one of each endpoint. \`?app=\` names the busiest application
  (about 2 % of all deployments); \`?version=\` the version the most deployments share;
  \`?commitHash=\` is the first 7 digits of a seeded commit and \`{id}\` a seeded deployment, both
  the deployment halfway through the time span; the month is the calendar month it falls in. Frequency windows end at
  13:37:12.345 UTC (not midnight, so the first and last buckets are partial); "400 days" is
  \`bucket=day\` over 400 days, "260 weeks" \`bucket=week\` over 260 weeks.

### Median latency (ms)

${latencyTable(report)}

${missed.length === 0 ? `Every endpoint met its targets${targetNote(report)}.` : `${missed.length} of ${rows.length} endpoints missed a target${targetNote(report)}: ${missed.map((row) => labelCell(row.timing.label)).join(', ')}.`}
Targets: every endpoint ≤ 50 ms at ${sizeName(TARGETS.atSize)}, the 400-day and 260-week frequencies ≤ 100 ms, and
none more than ${TARGETS.growth}x slower at the largest size than at the smallest.

### Storage

Everything in schema public (Shiplog's tables with their indexes, TOAST and maps, the read model
included; the queue's engine keeps its own schema), \`pg_total_relation_size\` summed after \`vacuum analyze\`,
divided by the number of deployments. Seeded in time order, the time-keyed indexes append as
production's do; the read model's counts see fewer updates (100,000 deployments a statement)
than production's small batches give them, so production may hold a few more bytes of them.

${storageTable(report)}

At ${whole(largest.size)} deployments, per relation (\`pg_relation_size\`, main fork):

${relationTable(largest.storage)}

### The run

Seeding and vacuum times are wall-clock. This machine is shared, and other work on it comes in
bursts, so before timing each size the benchmark waits (up to ${report.plan.quietWaitSeconds} s) until its ${cpus().length} cores have been
less than a quarter busy for 3 s. The benchmark itself keeps about one core busy while timing
(the client, the API and Postgres take turns), so a busy share well above ${Math.round(100 / cpus().length)} % means other work
competed with it and that size's figures are inflated.

${runTable(report)}
`
}
