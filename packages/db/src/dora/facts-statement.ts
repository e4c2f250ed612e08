import { eventCounts, events } from './event-counts.ts'
import { signalsOfWindow } from './failure-signals.ts'
import { leadTimePercentiles } from './lead-times.ts'
import { eventfulFacts, windowFacts } from './window-facts.ts'
import { failedInWindow, reworkInWindow } from './window-failures.ts'
import type { WindowScope } from './window-scope.ts'

/** What the facts statement answers for the window (bucket -1) and for each bucket. */
export interface FactsRow {
  bucket: number
  leadCommits: number
  leadMedianSeconds: number | null
  leadP90Seconds: number | null
  /** Redeploys and rollbacks: deployments that are not changes. */
  unchanged: number
  failed: number
  recoveries: number
  recoveryMedianSeconds: number | null
  open: number
  rework: number
}

/**
 * Everything but the deployment counts, for the window and per bucket, in one statement: the
 * window's stored facts (window-facts.ts), the failure signals they, the rollbacks and reverts
 * after the window and the environment's incidents give (failure-signals.ts), the window's failures and rework (window-failures.ts),
 * counted per bucket (event-counts.ts), and the lead-time percentiles (lead-times.ts). Each
 * piece is a CTE that the later ones read by name.
 */
export async function factsOfWindow(w: WindowScope): Promise<FactsRow[]> {
  const { tx } = w
  // The window's percentiles sort a year's lead times (hundreds of thousands) in memory.
  await tx`set local work_mem = '64MB'`
  return tx<FactsRow[]>`
    with window_facts as not materialized (${windowFacts(w)}),
    facts as materialized (${eventfulFacts(w)}),
    signals as (${signalsOfWindow(w)}),
    failed as (${failedInWindow(w)}),
    reworked as (${reworkInWindow(w)}),
    events as (${events(w)}),
    per_event as (${eventCounts(w)}),
    per_commit as (${leadTimePercentiles(w)})
    -- Seconds to the millisecond: percentiles interpolate in binary floating point.
    select c.bucket, c.commits as "leadCommits",
           round(c.percentiles[1]::numeric, 3)::float8 as "leadMedianSeconds",
           round(c.percentiles[2]::numeric, 3)::float8 as "leadP90Seconds",
           coalesce(e.unchanged, 0) as unchanged, coalesce(e.failed, 0) as failed,
           coalesce(e.recoveries, 0) as recoveries,
           round(e.recovery_median::numeric, 3)::float8 as "recoveryMedianSeconds",
           coalesce(e.open, 0) as open, coalesce(e.rework, 0) as rework
      from per_commit c left join per_event e on e.bucket = c.bucket`
}
