import { expect, test } from 'bun:test'
import { EARLIEST_MICROS, LATEST_MICROS } from '@shiplog/schema'
import fc from 'fast-check'
import { microsOf as at } from '../testing/recorded-jobs.ts'
import {
  type BucketRange,
  type BucketUnit,
  bucketSpans,
  bucketStart,
  DAY_MICROS,
  planWindow,
  type WindowPlan,
} from './time-units.ts'

// The plan is checked against the calendar as JavaScript's Date knows it (weekdays from
// getUTCDay), not against the module's own arithmetic: a bucket is a UTC day, or the seven days
// from a Monday.

const WEEK_MICROS = 7n * DAY_MICROS

/** Day number by BigInt remainder (a different route from the module's floor division). */
const dayNumber = (micros: bigint) =>
  Number((micros - (((micros % DAY_MICROS) + DAY_MICROS) % DAY_MICROS)) / DAY_MICROS)

/** Weekday of a day number, 0 Sunday … 6 Saturday, from Date. */
const weekday = (day: number) => new Date(day * 86_400_000).getUTCDay()

/** Start of the bucket holding `micros`, from the calendar: midnight, or the Monday before. */
function calendarBucketStart(unit: BucketUnit, micros: bigint): bigint {
  const day = dayNumber(micros)
  const first = unit === 'day' ? day : day - ((weekday(day) + 6) % 7)
  return BigInt(first) * DAY_MICROS
}

const unitMicros = (unit: BucketUnit) => (unit === 'day' ? DAY_MICROS : WEEK_MICROS)

/** Every piece of a plan as a micro range, tagged with what answers it. */
function pieces(plan: WindowPlan) {
  return [
    ...plan.partDays.map(({ from, to }) => ({ kind: 'part-day' as const, width: 0n, from, to })),
    ...plan.rollups.map((range) => {
      const unit: BucketUnit = range.bucketDays === 1 ? 'day' : 'week'
      return {
        kind: `rollup-${unit}` as const,
        width: unitMicros(unit),
        from: bucketStart(unit, range.from),
        to: bucketStart(unit, range.to),
      }
    }),
  ].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
}

/** The checks every plan of [since, until) must pass; returns a reason, or null. */
function planProblem(
  unit: BucketUnit,
  since: bigint,
  until: bigint,
  plan: WindowPlan = planWindow(unit, since, until),
): string | null {
  const width = unitMicros(unit)
  // The bucket list: from the bucket holding since to the one holding the window's last µs.
  const first = bucketStart(unit, plan.firstBucket)
  if (first !== calendarBucketStart(unit, since)) return `first bucket starts at ${first}`
  const last = bucketStart(unit, plan.firstBucket + plan.bucketCount - 1)
  if (last !== calendarBucketStart(unit, until - 1n)) return `last bucket starts at ${last}`
  if (last - first !== BigInt(plan.bucketCount - 1) * width) return 'buckets are not contiguous'
  if (plan.partDays.length > 2) return 'more than two part-days'
  if (unit === 'day' && plan.rollups.some((range) => range.bucketDays !== 1))
    return 'weekly rollup in a daily plan'

  // The pieces tile [since, until) exactly: sorted, each non-empty, each starting where the
  // previous ended, so none overlaps another and none leaves a gap.
  const list = pieces(plan)
  let cursor = since
  for (const piece of list) {
    if (piece.from !== cursor) return `gap or overlap at ${cursor}: next piece from ${piece.from}`
    if (piece.to <= piece.from) return `empty piece ${piece.from}..${piece.to}`
    cursor = piece.to
    if (piece.kind === 'part-day') {
      // Inside one day (so inside one bucket of either unit), and never a whole day.
      if (dayNumber(piece.from) !== dayNumber(piece.to - 1n)) return 'part-day spans two days'
      if (piece.to - piece.from === DAY_MICROS) return 'a whole day counted from the deployments'
    } else {
      // Whole buckets of its own width, starting on a bucket boundary of that width.
      const own: BucketUnit = piece.kind === 'rollup-day' ? 'day' : 'week'
      if (calendarBucketStart(own, piece.from) !== piece.from) return `${piece.kind} misaligned`
      if ((piece.to - piece.from) % piece.width !== 0n) return `${piece.kind} not whole buckets`
      if (own === 'week' && weekday(dayNumber(piece.from)) !== 1) return 'week not from a Monday'
    }
  }
  if (cursor !== until) return `pieces end at ${cursor}, not ${until}`

  // The spans: one per bucket, each inside its calendar bucket, together exactly [since, until).
  const spans = bucketSpans(unit, plan, since, until)
  if (spans.length !== plan.bucketCount)
    return `${spans.length} spans for ${plan.bucketCount} buckets`
  cursor = since
  for (const span of spans) {
    if (span.from !== cursor) return `span gap or overlap at ${cursor}`
    if (span.to <= span.from) return `empty span ${span.from}..${span.to}`
    if (calendarBucketStart(unit, span.from) !== span.start) return `span ${span.start} misplaced`
    if (calendarBucketStart(unit, span.to - 1n) !== span.start) return 'span crosses a bucket'
    cursor = span.to
  }
  if (cursor !== until) return `spans end at ${cursor}, not ${until}`
  return null
}

// Instants near the places plans are most likely wrong: midnights, Mondays, 1970, years 1 and
// 9999; then anywhere.
const MIDNIGHTS = [
  at('2026-05-04T00:00:00Z'), // a Monday
  at('2026-05-01T00:00:00Z'), // a Friday
  at('1970-01-01T00:00:00Z'),
  at('1969-12-29T00:00:00Z'), // the Monday of week 0
  at('1969-11-15T00:00:00Z'),
  EARLIEST_MICROS,
  at('9999-11-01T00:00:00Z'),
]

const offset = fc.oneof(
  fc.integer({ min: -70, max: 70 }).map((days) => BigInt(days) * DAY_MICROS),
  fc.integer({ min: -10, max: 10 }).map((weeks) => BigInt(weeks) * WEEK_MICROS),
  fc.bigInt({ min: -70n * DAY_MICROS, max: 70n * DAY_MICROS }),
  fc
    .tuple(fc.integer({ min: -70, max: 70 }), fc.constantFrom(-1n, 1n))
    .map(([days, micro]) => BigInt(days) * DAY_MICROS + micro),
)

const instant = fc.oneof(
  fc.tuple(fc.constantFrom(...MIDNIGHTS), offset).map(([base, shift]) => base + shift),
  fc.bigInt({ min: EARLIEST_MICROS, max: LATEST_MICROS }),
)

const length = (unit: BucketUnit) =>
  fc.oneof(
    fc.integer({ min: 1, max: unit === 'day' ? 60 : 20 }).map((n) => BigInt(n) * unitMicros(unit)),
    fc.bigInt({ min: 1n, max: (unit === 'day' ? 60n : 20n) * unitMicros(unit) }),
    fc.constantFrom(1n, DAY_MICROS - 1n, DAY_MICROS + 1n, WEEK_MICROS - 1n, WEEK_MICROS + 1n),
  )

const window = fc
  .constantFrom<BucketUnit>('day', 'week')
  .chain((unit) => fc.tuple(fc.constant(unit), instant, length(unit)))
  .map(([unit, since, span]) => ({ unit, since, until: since + span }))
  .filter(({ until }) => until <= LATEST_MICROS + 1n)

test('property: a plan tiles [since, until) exactly, each piece inside one bucket or whole buckets of its width', () => {
  let withWeeks = 0
  let withPartDays = 0
  let beforeEpoch = 0
  fc.assert(
    fc.property(window, ({ unit, since, until }) => {
      const plan = planWindow(unit, since, until)
      if (plan.rollups.some((range) => range.bucketDays === 7)) withWeeks++
      if (plan.partDays.length > 0) withPartDays++
      if (since < 0n) beforeEpoch++
      expect(planProblem(unit, since, until)).toBeNull()
    }),
    { numRuns: 5_000 },
  )
  // Not vacuous: the generator reaches every kind of piece.
  expect(withWeeks).toBeGreaterThan(200)
  expect(withPartDays).toBeGreaterThan(200)
  expect(beforeEpoch).toBeGreaterThan(200)
})

test('the oracle is not vacuous: it reports plans that do not tile or misplace a piece', () => {
  const since = at('2026-05-01T12:00:00Z')
  const until = at('2026-05-20T06:00:00Z')
  const plan = planWindow('week', since, until)
  expect(planProblem('week', since, until, plan)).toBeNull()
  const [first, second, third] = plan.rollups as [BucketRange, BucketRange, BucketRange]
  const broken: [string, WindowPlan][] = [
    ['a day dropped', { ...plan, rollups: [{ ...first, to: first.to - 1 }, second, third] }],
    ['a day counted twice', { ...plan, rollups: [{ ...first, to: first.to + 1 }, second, third] }],
    ['a part-day lost', { ...plan, partDays: plan.partDays.slice(1) }],
    ['one bucket too many', { ...plan, bucketCount: plan.bucketCount + 1 }],
    ['the first bucket late', { ...plan, firstBucket: plan.firstBucket + 1 }],
  ]
  for (const [what, wrong] of broken) {
    expect({ what, problem: planProblem('week', since, until, wrong) }).toEqual({
      what,
      problem: expect.any(String),
    })
  }
  // A part-day that runs past midnight is refused even when the tiling holds.
  const day = planWindow('day', since, since + 2n * DAY_MICROS)
  const merged: WindowPlan = {
    ...day,
    partDays: [{ from: since, to: since + 2n * DAY_MICROS }],
    rollups: [],
  }
  expect(planProblem('day', since, since + 2n * DAY_MICROS, merged)).toBe('part-day spans two days')
})
