import type { LoadResult } from '../load-messages.ts'
import type { Setting } from '../read/setting.ts'
import { median } from '../read/timing.ts'
import { type HookPlan, type ReceiverRun, type Saturation, WARM_UP } from './measure.ts'

/** The receiver's target: at least this share of POST /v1/deployments' rate in the same run. */
export const RECEIVER_TARGET_RATIO = 0.5

/** Below this share of the host's CPU busy before a round, the round had the host to itself. */
export const QUIET_HOST = 0.25

/** Everything one `bun run bench:hooks` measured. */
export interface HooksReport extends Setting {
  date: string
  plan: HookPlan
  quietWaitSeconds: number
  /** Each round, with how busy the host's CPU was just before it (others' work). */
  rounds: { hostBusy: number; deployments: Saturation; receiver: ReceiverRun }[]
}

const whole = (value: number) => Math.round(value).toLocaleString('en-US')
const notAccepted = (result: LoadResult) =>
  Object.values(result.otherStatuses).reduce((sum, count) => sum + count, 0) + result.errors

/** What went wrong with a receiver run's answers or storage; empty when every delivery got its 202. */
export function receiverFaults(run: ReceiverRun): string[] {
  const faults: string[] = []
  for (const [name, result] of [
    ['warm-up', run.warmUp],
    ['measured run', run],
  ] as const) {
    for (const [status, count] of Object.entries(result.otherStatuses))
      faults.push(`${name}: ${count} answered ${status}`)
    if (result.errors) faults.push(`${name}: ${result.errors} errors or timeouts`)
  }
  const { received = 0, ...others } = run.stored
  for (const [state, count] of Object.entries(others))
    faults.push(`${count} deliveries stored as ${state}`)
  if (received < run.warmUp.accepted + run.accepted)
    faults.push(`${received} deliveries stored for ${run.warmUp.accepted + run.accepted} 202s`)
  return faults
}

/** The ratio of each round, receiver to POST /v1/deployments, and their median. */
export function summariseHooks(report: HooksReport) {
  const ratios = report.rounds.map(
    (round) => round.receiver.perSecond / round.deployments.perSecond,
  )
  const ratio = median(ratios)
  const faults = report.rounds.flatMap((round) => receiverFaults(round.receiver))
  return { ratios, ratio, faults, met: faults.length === 0 && ratio >= RECEIVER_TARGET_RATIO }
}

/** The receivers' section of docs/benchmarks.md (between its markers). */
export function renderHooksMarkdown(report: HooksReport): string {
  const { ratios, ratio, faults, met } = summariseHooks(report)
  const [first] = report.rounds
  if (!first) throw new Error('nothing was measured')
  const rows = report.rounds
    .map(({ hostBusy, deployments, receiver }, index) =>
      [
        index + 1,
        `${Math.round(hostBusy * 100)} %`,
        whole(deployments.perSecond),
        whole(receiver.perSecond),
        `${(ratios[index] as number).toFixed(2)}x`,
        `${deployments.latencyMs.p50} / ${deployments.latencyMs.p99} ms`,
        `${receiver.latencyMs.p50} / ${receiver.latencyMs.p99} ms`,
        whole(notAccepted(deployments)),
        whole(notAccepted(receiver) + notAccepted(receiver.warmUp)),
        whole(receiver.stored.received ?? 0),
      ].join(' | '),
    )
    .map((row) => `| ${row} |`)
    .join('\n')
  const busy = report.rounds.filter((round) => round.hostBusy >= QUIET_HOST).length
  const caveat = busy
    ? `, but not reliably: the host was busy with other work before ${busy} of ${report.rounds.length} rounds, and the two endpoints then compete with it unequally (the figures say more about the neighbours than about either endpoint)`
    : ''
  const verdict = faults.length
    ? `**failed**: ${faults.join('; ')}`
    : `${met ? 'met' : '**missed**'}${caveat}`
  return `## Receiving GitHub deliveries

Produced by \`bun run bench:hooks\` on ${report.date} (\`bun run bench\` runs it after the ingest
part). Same caution as above: read the ratio to \`POST /v1/deployments\` measured in the same
rounds, not figures across runs.

- Machine: ${report.machine}
- Runtime: ${report.runtime}; Postgres: ${report.postgres}
- Code: ${report.code}
- Load: the ingest part's saturation for both endpoints, in turn in each of ${report.rounds.length} rounds, each
  against a fresh database and API process (production's defaults, request logs on): autocannon
  from its own process, ${WARM_UP.durationSeconds} s of warm-up at ${WARM_UP.connections} connections, then ${report.plan.connections} keep-alive
  connections for ${report.plan.seconds} s. No worker runs: both count what was stored durably and answered 202.
  Each round waits up to ${Math.round(report.quietWaitSeconds)} s for a quiet host (under ${QUIET_HOST * 100} % of its CPU busy); the table gives how busy
  it was in the 3 s before the round, with nothing of the benchmark running.
- \`POST /v1/deployments\`: the ingest part's bodies under an API key.
- \`POST /hooks/{id}\`: a GitHub integration created through the API, then \`deployment_status\`
  \`success\` deliveries of ${whole(first.receiver.bodyBytes)} bytes in the shape of GitHub's own example (10 repositories,
  3 environments), each with its own \`X-GitHub-Delivery\` and its own deployment (commit and
  second). All of them are signed with the integration's secret before the run (HMAC-SHA256 of
  the body, ${whole(first.receiver.signed)} in ${first.receiver.signSeconds.toFixed(1)} s in round 1, twice what the round's \`POST /v1/deployments\`
  rate could use); the load generator only joins each body from its parts. Every answer must be
  a 202 and every 202 a stored delivery waiting for the worker (none a duplicate).

| Round | Host busy before | \`POST /v1/deployments\` 202/s | \`POST /hooks/{id}\` 202/s | Ratio | Deployments p50 / p99 | Receiver p50 / p99 | Deployments not 202 | Deliveries not 202 | Deliveries stored (warm-up too) |
|---|---:|---:|---:|---:|---|---|---:|---:|---:|
${rows}

Receiver / \`POST /v1/deployments\`: ${ratio.toFixed(2)}x (median of rounds). Target: at least
${RECEIVER_TARGET_RATIO}x, every delivery answered 202: ${verdict}.
`
}
