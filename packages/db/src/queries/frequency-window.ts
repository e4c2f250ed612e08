// How a frequency window splits into what the read model can answer: whole days and whole weeks
// from `deployment_counts`, and at most two part-days (a window need not start or end at
// midnight) counted from the deployments themselves. The numbering is the migration's
// `day_number` and `bucket_number`: UTC days since 1970-01-01, ISO weeks since Monday 1969-12-29.

export const DAY_MICROS = 86_400_000_000n

/** Bucket widths in days, as `deployment_counts.bucket_days` stores them. */
export const BUCKET_DAYS = { day: 1, week: 7 } as const
export type BucketUnit = keyof typeof BUCKET_DAYS

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

function floorDiv(value: bigint, divisor: bigint): bigint {
  const quotient = value / divisor
  return value % divisor !== 0n && value < 0n ? quotient - 1n : quotient
}

export const dayOf = (micros: bigint): number => Number(floorDiv(micros, DAY_MICROS))
const weekOfDay = (day: number): number => Math.floor((day + 3) / 7)
const mondayOfWeek = (week: number): number => week * 7 - 3

/** The bucket a day falls in. */
export function bucketOfDay(unit: BucketUnit, day: number): number {
  return unit === 'day' ? day : weekOfDay(day)
}

/** Where a bucket starts, in microseconds since the epoch. */
export function bucketStart(unit: BucketUnit, bucket: number): bigint {
  return BigInt(unit === 'day' ? bucket : mondayOfWeek(bucket)) * DAY_MICROS
}

/** Blocks of 32 buckets that a range touches, first and last included. */
export function blocksOf(range: BucketRange): { first: number; last: number } {
  return { first: range.from >> 5, last: (range.to - 1) >> 5 }
}

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
  const dayStart = (day: number) => BigInt(day) * DAY_MICROS
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
  if (wholeFrom >= wholeTo) return plan
  if (unit === 'day') {
    plan.rollups.push({ bucketDays: 1, from: wholeFrom, to: wholeTo })
    return plan
  }
  // Days before the first whole week and after the last are read from the daily rollup.
  const firstMonday =
    mondayOfWeek(weekOfDay(wholeFrom)) === wholeFrom
      ? wholeFrom
      : mondayOfWeek(weekOfDay(wholeFrom) + 1)
  const lastMonday = mondayOfWeek(weekOfDay(wholeTo))
  if (firstMonday >= lastMonday) {
    plan.rollups.push({ bucketDays: 1, from: wholeFrom, to: wholeTo })
    return plan
  }
  if (wholeFrom < firstMonday)
    plan.rollups.push({ bucketDays: 1, from: wholeFrom, to: firstMonday })
  plan.rollups.push({ bucketDays: 7, from: weekOfDay(firstMonday), to: weekOfDay(lastMonday) })
  if (lastMonday < wholeTo) plan.rollups.push({ bucketDays: 1, from: lastMonday, to: wholeTo })
  return plan
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
