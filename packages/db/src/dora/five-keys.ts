import type { DoraFigures, DoraMetrics } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import { inSnapshot } from '../read/snapshot.ts'
import { type DoraRow, type DoraScope, doraStatement, type PeriodRows } from './statement.ts'
import { type BucketUnit, DAY_MICROS, isoOf } from './time-units.ts'

/** The deployments of `DoraScope` over the window [since, until) (microseconds), per bucket. */
export interface DoraWindow extends DoraScope {
  since: bigint
  until: bigint
  bucket: BucketUnit
}

/** The five keys of a window and of each bucket: all of `DoraMetrics` but the environment. */
export type WindowMetrics = Omit<DoraMetrics, 'environment'>

/**
 * The five DORA keys of an environment (or several together) over a window and per bucket (GET
 * /v1/metrics/dora), or undefined when the workspace has no such environment.
 */
export async function doraMetrics(
  sql: Sql,
  window: DoraWindow,
): Promise<WindowMetrics | undefined> {
  const { since, until, bucket } = window
  const periods = await inSnapshot(sql, (tx) =>
    doraStatement(tx, window, [{ since, until, whole: true, split: bucket }]),
  )
  return periods?.[0] && windowMetricsOf(periods[0])
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole)

/** Days in [from, to), microseconds, as a fraction for a part-day. */
export const daysBetween = (from: bigint, to: bigint) => Number(to - from) / Number(DAY_MICROS)

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

/** The five keys of a period's own row and, in `series`, of each of its buckets. */
function windowMetricsOf(period: PeriodRows): WindowMetrics {
  const { since, until, whole } = period
  return {
    since: isoOf(since),
    until: isoOf(until),
    ...figuresOf(whole as DoraRow, daysBetween(since, until)),
    // The edge buckets count only their part inside the window.
    series: period.buckets.map((bucket) => ({
      start: isoOf(bucket.start),
      ...figuresOf(bucket.row, daysBetween(bucket.from, bucket.to)),
    })),
  }
}
