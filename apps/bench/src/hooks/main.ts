// `bun run bench:hooks` (and a step of `bun run bench`): the receiver's throughput for signed
// GitHub deliveries (POST /hooks/{id}) against POST /v1/deployments in the same rounds, under the
// ingest part's saturating load. Target: the receiver at least 0.5x, every delivery answered 202.
// Writes the `hooks` section of docs/benchmarks.md; exits 1 if a delivery was not answered 202.
import { createSql } from '@shiplog/db/client'
import { stopTestServer, testServer } from '@shiplog/db/testing'
import { writeSection } from '../benchmarks-file.ts'
import { busyShare, cpuTimes, waitForQuietHost } from '../read/host-cpu.ts'
import { describeSetting } from '../read/setting.ts'
import { type HookPlan, measureDeployments, measureReceiver } from './measure.ts'
import {
  type HooksReport,
  QUIET_HOST,
  receiverFaults,
  renderHooksMarkdown,
  summariseHooks,
} from './report.ts'

// Three rounds: the ratio is their median, and one round on a noisy neighbour's turn moves it less.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const plan: HookPlan = {
  port: 3900,
  connections: 100,
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  apiRuntimeFlags: process.env.BENCH_API_FLAGS?.split(' ').filter(Boolean),
}
const quietWaitMs = Number(process.env.BENCH_QUIET_WAIT_SECONDS ?? 60) * 1000
const log = (message: string) => console.log(`[bench:hooks] ${message}`)

/** Waits (a while) for a quiet host, then how busy its CPU was over 3 s: the neighbours' share. */
async function hostBusyBeforeRound(): Promise<number> {
  await waitForQuietHost(QUIET_HOST, quietWaitMs)
  const before = cpuTimes()
  await new Promise((resolve) => setTimeout(resolve, 3_000))
  return busyShare(before, cpuTimes())
}

const server = await testServer()
const probe = createSql(server.url, { applicationName: 'shiplog-bench', maxConnections: 1 })
const setting = await describeSetting(probe, !process.env.DATABASE_URL, new URL(server.url).host)
await probe.end()

try {
  const report: HooksReport = {
    date: new Date().toISOString().slice(0, 10),
    ...setting,
    plan,
    quietWaitSeconds: quietWaitMs / 1000,
    rounds: [],
  }
  for (let round = 1; round <= rounds; round++) {
    const hostBusy = await hostBusyBeforeRound()
    log(
      `round ${round}/${rounds}: host ${Math.round(hostBusy * 100)} % busy before; POST /v1/deployments`,
    )
    const deployments = await measureDeployments(plan)
    log(`  ${Math.round(deployments.perSecond)} accepted/s`)
    log(`round ${round}/${rounds}: POST /hooks/{id}, signed deployment_status deliveries`)
    const receiver = await measureReceiver(plan, deployments.perSecond)
    const faults = receiverFaults(receiver)
    log(
      `  ${Math.round(receiver.perSecond)} accepted/s (${(receiver.perSecond / deployments.perSecond).toFixed(2)}x)${faults.length ? `; ${faults.join('; ')}` : ''}`,
    )
    report.rounds.push({ hostBusy, deployments, receiver })
  }
  const markdown = renderHooksMarkdown(report)
  console.log(`\n${markdown}`)
  await writeSection('hooks', markdown)
  log('wrote the receivers section of docs/benchmarks.md')
  const { ratio, faults, met } = summariseHooks(report)
  const busy = report.rounds.some((round) => round.hostBusy >= QUIET_HOST)
  log(
    `receiver / POST /v1/deployments ${ratio.toFixed(2)}x: ${met ? 'PASS' : 'FAIL'}${busy ? ' (the host was busy: not reliable)' : ''}`,
  )
  if (faults.length) process.exitCode = 1
} finally {
  await stopTestServer()
}
