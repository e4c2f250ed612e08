import type { Sql } from '@shiplog/db/client'
import { computeDoraGaugesIfDue, storedDoraGauges } from '@shiplog/db/dora/gauge-snapshot'

/** What one computation of the worker's DORA gauges (DORA_METRICS_ENABLED) cost. */
export interface GaugeTiming {
  runs: number
  medianMs: number
  minMs: number
  maxMs: number
  /** Figure sets stored: per workspace, environment set and window, and per kept application. */
  groups: number
  topApplications: number
}

/**
 * Times `runs` computations of every workspace's gauges as a worker's timer runs them, with
 * per-application figures for the busiest `topApplications`; each is due (an interval of 0).
 */
export async function timeGaugeComputation(
  sql: Sql,
  runs: number,
  topApplications: number,
): Promise<GaugeTiming> {
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const computed = await computeDoraGaugesIfDue(sql, { intervalMs: 0, topApplications })
    if (!computed) throw new Error('the gauges were not computed')
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const stored = await storedDoraGauges(sql)
  return {
    runs,
    medianMs: times[Math.floor(runs / 2)] as number,
    minMs: times[0] as number,
    maxMs: times.at(-1) as number,
    groups: stored?.groups.length ?? 0,
    topApplications,
  }
}
