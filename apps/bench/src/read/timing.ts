import type { ReadClient } from './client.ts'
import type { Endpoint } from './endpoints.ts'
import { busyShare, cpuTimes } from './host-cpu.ts'

/** What one endpoint measured at one size; `error` when it failed, and then no figures. */
export interface EndpointTiming {
  label: string
  path: string
  targetMs: number
  medianMs: number
  minMs: number
  maxMs: number
  /** Size of the answer's body. */
  bytes: number
  error?: string
}

/** How the endpoints were asked at one size. */
export interface TimingRun {
  timings: EndpointTiming[]
  warmupRounds: number
  /** The API's Postgres connections after the warm-up: each prepares statements of its own. */
  apiConnections: number
  /** Share of the host's CPU busy during the timed rounds (the benchmark's own part included). */
  hostBusy: number
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/**
 * Asks every endpoint once per round, one request at a time, so a burst of noise on this shared
 * machine spreads over all endpoints instead of spoiling one. Warm-up rounds come first: postgres.js
 * prepares each statement on each pool connection, and Postgres plans it afresh for its first five
 * executions there before its generic plan may take over, the plan production runs. So warm-up
 * goes on until each connection the API holds has had seven rounds. Then `samples` timed rounds.
 * An endpoint that answers anything but a 200 with data is asked no more: its error is reported
 * in place of figures, since timing an error page would measure nothing.
 */
export async function timeEndpoints(
  client: ReadClient,
  endpoints: Endpoint[],
  plan: { warmups: number; samples: number },
  countApiConnections: () => Promise<number>,
): Promise<TimingRun> {
  const samples: number[][] = endpoints.map(() => [])
  const bytes: number[] = endpoints.map(() => 0)
  const errors: (string | undefined)[] = endpoints.map(() => undefined)
  const round = async (timed: boolean) => {
    for (const [position, endpoint] of endpoints.entries()) {
      if (errors[position]) continue
      try {
        const answer = await client.get(endpoint.path)
        if (!endpoint.hasData(answer.body))
          throw new Error(`GET ${endpoint.path} answered 200 with nothing in it`)
        bytes[position] = answer.bytes
        if (timed) samples[position]?.push(answer.ms)
      } catch (error) {
        errors[position] = String(error)
        console.error(`[bench:read] FAILED ${endpoint.label}: ${String(error)}`)
      }
    }
  }

  let warmupRounds = 0
  let apiConnections = 0
  for (;;) {
    await round(false)
    warmupRounds++
    if (warmupRounds < plan.warmups) continue
    apiConnections = await countApiConnections()
    if (warmupRounds >= 7 * apiConnections) break
  }
  const before = cpuTimes()
  for (let index = 0; index < plan.samples; index++) await round(true)
  const hostBusy = busyShare(before, cpuTimes())
  return {
    warmupRounds,
    apiConnections,
    hostBusy,
    timings: endpoints.map((endpoint, position) => {
      const error = errors[position]
      const ms = samples[position] as number[]
      const timing = {
        label: endpoint.label,
        path: endpoint.path,
        targetMs: endpoint.targetMs,
        medianMs: error ? Number.NaN : median(ms),
        minMs: error ? Number.NaN : Math.min(...ms),
        maxMs: error ? Number.NaN : Math.max(...ms),
        bytes: bytes[position] as number,
      }
      return error ? { ...timing, error } : timing
    }),
  }
}
