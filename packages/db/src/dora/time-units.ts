// Time as the DORA figures count it: microseconds since the epoch, UTC days and ISO weeks, each
// numbered as the read model's SQL functions `day_number` and `bucket_number` number them:
// days since 1970-01-01, weeks since Monday 1969-12-29, both negative before.

import { instantFromMicros } from '@shiplog/schema'

/** A UTC day in microseconds. */
export const DAY_MICROS = 86_400_000_000n

/** Bucket widths in days, as `deployment_counts.bucket_days` stores them. */
export const BUCKET_DAYS = { day: 1, week: 7 } as const
export type BucketUnit = keyof typeof BUCKET_DAYS

/** Bucket widths in microseconds. */
export const BUCKET_MICROS: Record<BucketUnit, bigint> = { day: DAY_MICROS, week: 7n * DAY_MICROS }

function floorDiv(value: bigint, divisor: bigint): bigint {
  const quotient = value / divisor
  return value % divisor !== 0n && value < 0n ? quotient - 1n : quotient
}

/** The number of the UTC day holding an instant (microseconds since the epoch). */
export const dayOf = (micros: bigint): number => Number(floorDiv(micros, DAY_MICROS))
/** The ISO week (from Monday) a day falls in. */
export const weekOfDay = (day: number): number => Math.floor((day + 3) / 7)
/** The day a week starts on, a Monday. */
export const mondayOfWeek = (week: number): number => week * 7 - 3

/** The bucket a day falls in. */
export function bucketOfDay(unit: BucketUnit, day: number): number {
  return unit === 'day' ? day : weekOfDay(day)
}

/** Where a bucket starts, in microseconds since the epoch. */
export function bucketStart(unit: BucketUnit, bucket: number): bigint {
  return BigInt(unit === 'day' ? bucket : mondayOfWeek(bucket)) * DAY_MICROS
}

/** An instant as the statements send it: ISO text, cast to timestamptz in SQL. */
export const isoOf = (micros: bigint): string => instantFromMicros(micros).iso

// How a window splits into what the read model can answer: whole days and whole weeks from
// `deployment_counts`, and at most two part-days (a window need not start or end at midnight)
// counted from the deployments themselves; and the window's buckets, the edge ones cut to it.

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
