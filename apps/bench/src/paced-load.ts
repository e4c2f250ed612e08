// Open-loop load at a fixed rate, run as its own process. Each request has an intended send time
// (i / rate); latency is measured from that time, so a stalled server cannot hide its stall by
// slowing the sender down (no coordinated omission). Input: one JSON object on stdin;
// output: one JSON object on stdout.
import type { PacedPlan, PacedResult } from './load-messages.ts'
import { readStdin } from './stdin.ts'

const plan = JSON.parse(await readStdin()) as PacedPlan
const total = Math.round(plan.rate * plan.durationSeconds)
const latencies: number[] = []
const otherStatuses: Record<string, number> = {}
let accepted = 0
let errors = 0
let sent = 0

async function send(index: number, intendedAt: number): Promise<void> {
  try {
    const response = await fetch(plan.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${plan.key}`, 'content-type': 'application/json' },
      body: plan.bodies[index % plan.bodies.length],
    })
    await response.arrayBuffer()
    latencies.push(performance.now() - intendedAt)
    if (response.status === 202) accepted++
    else otherStatuses[response.status] = (otherStatuses[response.status] ?? 0) + 1
  } catch {
    errors++
  }
}

const startedAt = performance.now()
const inFlight: Promise<void>[] = []
await new Promise<void>((resolve) => {
  const tick = () => {
    const now = performance.now()
    while (sent < total && startedAt + (sent * 1000) / plan.rate <= now) {
      inFlight.push(send(sent, startedAt + (sent * 1000) / plan.rate))
      sent++
    }
    if (sent < total) setTimeout(tick, 0)
    else resolve()
  }
  tick()
})
await Promise.all(inFlight)
const elapsedSeconds = (performance.now() - startedAt) / 1000
latencies.sort((a, b) => a - b)
const at = (quantile: number) =>
  Math.round(
    (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * quantile))] ?? 0) * 100,
  ) / 100
const result: PacedResult = {
  requests: sent,
  accepted,
  otherStatuses,
  errors,
  achievedRate: Math.round(sent / elapsedSeconds),
  latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) },
}
console.log(JSON.stringify(result))
