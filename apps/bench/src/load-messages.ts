// What ingest.ts sends the two load generators (load.ts, paced-load.ts) on stdin, and what they
// answer on stdout.

/** Where to post, as whom, which bodies (in turn), and for how long. */
interface LoadTarget {
  url: string
  key: string
  bodies: string[]
  durationSeconds: number
}

/** For load.ts: closed-loop load over `connections`. */
export interface LoadPlan extends LoadTarget {
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
