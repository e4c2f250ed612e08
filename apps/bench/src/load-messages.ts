// What ingest.ts and hooks/ send the two load generators (load.ts, paced-load.ts) on stdin, and
// what they answer on stdout.

/** Where to post, as whom, which bodies (in turn), and for how long. */
interface LoadTarget {
  url: string
  key: string
  bodies: string[]
  durationSeconds: number
}

/**
 * GitHub deliveries signed before the run, for load.ts to send without a key: request k is the
 * delivery `first + k` of `deploymentStatusSuccess` (@shiplog/db/testing), with `signatures[k]`.
 * Past the last signature they start over, as redeliveries the receiver answers 200, not 202.
 */
export interface SignedDeliveries {
  first: number
  startMs: number
  signatures: string[]
}

/** Where to post signed deliveries (no key: the sender's signature proves them), and how long. */
interface DeliveryTarget {
  url: string
  deliveries: SignedDeliveries
  durationSeconds: number
}

/** For load.ts: closed-loop load over `connections`, of API bodies or of signed deliveries. */
export type LoadPlan = (LoadTarget | DeliveryTarget) & {
  connections: number
  /** Requests per second across all connections; unset means as fast as possible. */
  rate?: number
}

/** For paced-load.ts: open-loop load at a fixed rate. */
export interface PacedPlan extends LoadTarget {
  rate: number
}

/** What both generators count. */
interface LoadCounts {
  requests: number
  accepted: number
  otherStatuses: Record<string, number>
  errors: number
  latencyMs: { p50: number; p90: number; p99: number; max: number }
}

/** What load.ts answers. */
export interface LoadResult extends LoadCounts {
  durationSeconds: number
}

/** What paced-load.ts answers. */
export interface PacedResult extends LoadCounts {
  achievedRate: number
}
