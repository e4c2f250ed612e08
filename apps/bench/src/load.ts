// The load generator, run as its own process so it never shares an event loop with the API.
// Input: one JSON object on stdin; output: one JSON object on stdout.
import { deploymentStatusSuccess, gitHubDeliveryIdOf, gitHubHeaders } from '@shiplog/db/testing'
import autocannon from 'autocannon'
import type { LoadPlan, LoadResult, SignedDeliveries } from './load-messages.ts'
import { readStdin } from './stdin.ts'

type Setup = (request: autocannon.Request) => autocannon.Request

/** API bodies in turn, under the key's header set once for all. */
function bodiesInTurn(bodies: string[]): Setup {
  let next = 0
  return (request) => {
    request.body = bodies[next++ % bodies.length]
    return request
  }
}

// Building a delivery's body is a string join; its signature was made before the run.
function signedInTurn({ first, startMs, signatures }: SignedDeliveries): Setup {
  let next = 0
  return (request) => {
    const index = next++ % signatures.length
    const n = first + index
    request.body = deploymentStatusSuccess(n, startMs)
    request.headers = {
      ...request.headers,
      ...gitHubHeaders(gitHubDeliveryIdOf(n), signatures[index] as string),
    }
    return request
  }
}

const plan = JSON.parse(await readStdin()) as LoadPlan
const result = await autocannon({
  url: plan.url,
  method: 'POST',
  connections: plan.connections,
  duration: plan.durationSeconds,
  overallRate: plan.rate,
  headers:
    'key' in plan
      ? { authorization: `Bearer ${plan.key}`, 'content-type': 'application/json' }
      : {},
  requests: [
    {
      setupRequest:
        'deliveries' in plan ? signedInTurn(plan.deliveries) : bodiesInTurn(plan.bodies),
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
