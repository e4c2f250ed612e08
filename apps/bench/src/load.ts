// The load generator, run as its own process so it never shares an event loop with the API.
// Input: one JSON object on stdin; output: one JSON object on stdout.
import autocannon from 'autocannon'
import type { LoadPlan, LoadResult } from './load-messages.ts'
import { readStdin } from './stdin.ts'

const plan = JSON.parse(await readStdin()) as LoadPlan
let next = 0
const result = await autocannon({
  url: plan.url,
  method: 'POST',
  connections: plan.connections,
  duration: plan.durationSeconds,
  overallRate: plan.rate,
  headers: { authorization: `Bearer ${plan.key}`, 'content-type': 'application/json' },
  requests: [
    {
      setupRequest: (request) => {
        request.body = plan.bodies[next++ % plan.bodies.length]
        return request
      },
    },
  ],
})
const statuses = result.statusCodeStats as unknown as Record<string, { count: number }>
const otherStatuses: Record<string, number> = {}
for (const [status, { count }] of Object.entries(statuses)) {
  if (status !== '202') otherStatuses[status] = count
}
const output: LoadResult = {
  requests: result.requests.total,
  accepted: statuses['202']?.count ?? 0,
  otherStatuses,
  errors: result.errors + result.timeouts,
  durationSeconds: result.duration,
  latencyMs: {
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
  },
}
console.log(JSON.stringify(output))
