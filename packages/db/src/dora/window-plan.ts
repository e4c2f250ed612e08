// How a window splits into what the read model can answer: whole days and whole weeks from
// `deployment_counts`, and at most two part-days (a window need not start or end at midnight)
// counted from the deployments themselves; and the window's buckets, the edge ones cut to it.

import {
  type BucketUnit,
  bucketOfDay,
  bucketStart,
  DAY_MICROS,
  dayOf,
  mondayOfWeek,
  weekOfDay,
} from './time-units.ts'

/** A half-open range of numbered buckets (days or weeks), `from` included, `to` not. */
export interface BucketRange {
  bucketDays: 1 | 7
  from: number
  to: number
}

/** The plan of a window: its buckets, and where each part of it is counted. */
export interface WindowPlan {
  /** Number of the window's first bucket (a day or a week), and how many buckets it has. */
  firstBucket: number
  bucketCount: number
  /** Part-days, in microseconds since the epoch, each inside one bucket. */
  partDays: { from: bigint; to: bigint }[]
  /** Whole days and whole weeks, read from the rollup. */
  rollups: BucketRange[]
}

/** Blocks of 32 buckets that a range touches, first and last included. */
export function blocksOf(range: BucketRange): { first: number; last: number } {
  return { first: range.from >> 5, last: (range.to - 1) >> 5 }
}

const dayStart = (day: number) => BigInt(day) * DAY_MICROS

/** Splits the window [since, until) (microseconds, since < until) into what answers each part. */
export function planWindow(unit: BucketUnit, since: bigint, until: bigint): WindowPlan {
  const firstDay = dayOf(since)
  const lastDay = dayOf(until - 1n)
  const firstBucket = bucketOfDay(unit, firstDay)
  const plan: WindowPlan = {
    firstBucket,
    bucketCount: bucketOfDay(unit, lastDay) - firstBucket + 1,
    partDays: [],
    rollups: [],
  }
  let wholeFrom = firstDay
  let wholeTo = lastDay + 1
  if (since !== dayStart(firstDay)) {
    const to = until < dayStart(firstDay + 1) ? until : dayStart(firstDay + 1)
    plan.partDays.push({ from: since, to })
    wholeFrom = firstDay + 1
  }
  if (until !== dayStart(lastDay + 1) && lastDay >= wholeFrom) {
    plan.partDays.push({ from: dayStart(lastDay), to: until })
    wholeTo = lastDay
  }
  if (wholeFrom < wholeTo) plan.rollups.push(...wholeDayRanges(unit, wholeFrom, wholeTo))
  return plan
}

/** The rollup ranges of the whole days [from, to): whole weeks by week, the days around them by day. */
function wholeDayRanges(unit: BucketUnit, from: number, to: number): BucketRange[] {
  if (unit === 'day') return [{ bucketDays: 1, from, to }]
  const firstMonday =
    mondayOfWeek(weekOfDay(from)) === from ? from : mondayOfWeek(weekOfDay(from) + 1)
  const lastMonday = mondayOfWeek(weekOfDay(to))
  if (firstMonday >= lastMonday) return [{ bucketDays: 1, from, to }]
  const ranges: BucketRange[] = []
  if (from < firstMonday) ranges.push({ bucketDays: 1, from, to: firstMonday })
  ranges.push({ bucketDays: 7, from: weekOfDay(firstMonday), to: weekOfDay(lastMonday) })
  if (lastMonday < to) ranges.push({ bucketDays: 1, from: lastMonday, to })
  return ranges
}

/** A bucket of a window: where it starts, and its part inside the window, [from, to). */
export interface BucketSpan {
  start: bigint
  from: bigint
  to: bigint
}

/** The window's buckets in order, the edge ones cut to the window [since, until). */
export function bucketSpans(
  unit: BucketUnit,
  plan: WindowPlan,
  since: bigint,
  until: bigint,
): BucketSpan[] {
  return Array.from({ length: plan.bucketCount }, (_, index) => {
    const start = bucketStart(unit, plan.firstBucket + index)
    const end = bucketStart(unit, plan.firstBucket + index + 1)
    return { start, from: start > since ? start : since, to: end < until ? end : until }
  })
}
