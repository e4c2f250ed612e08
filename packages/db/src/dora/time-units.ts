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
