import type { DoraFigures, DoraMetrics } from '@shiplog/schema'
import { DAY_MICROS, isoOf } from './time-units.ts'
import type { DoraRow, DoraWindowRows } from './window-rows.ts'

/** The five keys of a window and of each bucket: all of `DoraMetrics` but the environment. */
export type WindowMetrics = Omit<DoraMetrics, 'environment'>

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole)

const daysBetween = (from: bigint, to: bigint) => Number(to - from) / Number(DAY_MICROS)

/** The five keys from one row, over `days` days. */
export function figuresOf(row: DoraRow, days: number): DoraFigures {
  const { deployments, changes, failed, rework } = row
  return {
    deploymentFrequency: { deployments, perDay: days > 0 ? deployments / days : 0 },
    changeLeadTime: {
      commits: row.leadCommits,
      medianSeconds: row.leadMedianSeconds,
      p90Seconds: row.leadP90Seconds,
    },
    changeFailRate: { failed, deployments: changes, ratio: ratio(failed, changes) },
    failedDeploymentRecoveryTime: {
      recoveries: row.recoveries,
      medianSeconds: row.recoveryMedianSeconds,
      open: row.open,
    },
    deploymentReworkRate: { rework, deployments, ratio: ratio(rework, deployments) },
  }
}

/** The five keys of the window [since, until) and, in `series`, of each of its buckets. */
export function windowMetricsOf(rows: DoraWindowRows, since: bigint, until: bigint): WindowMetrics {
  return {
    since: isoOf(since),
    until: isoOf(until),
    ...figuresOf(rows.window, daysBetween(since, until)),
    // The edge buckets count only their part inside the window.
    series: rows.buckets.map((bucket) => ({
      start: isoOf(bucket.start),
      ...figuresOf(bucket.row, daysBetween(bucket.from, bucket.to)),
    })),
  }
}
