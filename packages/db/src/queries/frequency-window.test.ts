import { describe, expect, test } from 'bun:test'
import { EARLIEST_MICROS, LATEST_MICROS, parseDateTime } from '@shiplog/schema'
import fc from 'fast-check'
import {
  type BucketRange,
  type BucketUnit,
  blocksOf,
  bucketOfDay,
  bucketSpans,
  bucketStart,
  DAY_MICROS,
  dayOf,
  planWindow,
  type WindowPlan,
} from './frequency-window.ts'

// The plan is checked against the calendar as JavaScript's Date knows it (weekdays from
// getUTCDay), not against the module's own arithmetic: a bucket is a UTC day, or the seven days
// from a Monday.

const WEEK_MICROS = 7n * DAY_MICROS

/** Microseconds since the epoch of an RFC 3339 date-time. */
function at(text: string): bigint {
  const parsed = parseDateTime(text)
  if (!parsed.ok) throw new Error(`${text} is not a date-time the tests can use`)
  return parsed.instant.micros
}

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

describe('planWindow', () => {
  test('a window aligned at midnight is whole days, read from the daily rollup', () => {
    const since = at('2026-05-01T00:00:00Z')
    const plan = planWindow('day', since, at('2026-05-04T00:00:00Z'))
    expect(plan).toEqual({
      firstBucket: dayOf(since),
      bucketCount: 3,
      partDays: [],
      rollups: [{ bucketDays: 1, from: dayOf(since), to: dayOf(since) + 3 }],
    })
    expect(bucketStart('day', plan.firstBucket)).toBe(since)
  })

  test('an unaligned window counts its two part-days from deployments and the days between from the rollup', () => {
    const since = at('2026-05-01T12:00:00Z')
    const until = at('2026-05-04T06:00:00.000001Z')
    const day = dayOf(since)
    expect(planWindow('day', since, until)).toEqual({
      firstBucket: day,
      bucketCount: 4,
      partDays: [
        { from: since, to: at('2026-05-02T00:00:00Z') },
        { from: at('2026-05-04T00:00:00Z'), to: until },
      ],
      rollups: [{ bucketDays: 1, from: day + 1, to: day + 3 }],
    })
  })

  test('a window starting at midnight and ending mid-day has one part-day, at its end', () => {
    const since = at('2026-05-01T00:00:00Z')
    const until = at('2026-05-03T00:00:00.5Z')
    expect(planWindow('day', since, until)).toEqual({
      firstBucket: dayOf(since),
      bucketCount: 3,
      partDays: [{ from: at('2026-05-03T00:00:00Z'), to: until }],
      rollups: [{ bucketDays: 1, from: dayOf(since), to: dayOf(since) + 2 }],
    })
  })

  test('windows inside one day are one part-day and one bucket', () => {
    const cases: [string, string][] = [
      ['2026-05-01T10:00:00Z', '2026-05-01T11:00:00Z'],
      ['2026-05-01T00:00:00Z', '2026-05-01T11:00:00Z'],
      ['2026-05-01T10:00:00Z', '2026-05-02T00:00:00Z'],
      ['2026-05-01T23:59:59.999999Z', '2026-05-02T00:00:00Z'],
      ['2026-05-01T00:00:00Z', '2026-05-01T00:00:00.000001Z'],
    ]
    for (const unit of ['day', 'week'] as const) {
      for (const [sinceText, untilText] of cases) {
        const since = at(sinceText)
        const until = at(untilText)
        expect(planWindow(unit, since, until)).toEqual({
          firstBucket: bucketOfDay(unit, dayOf(since)),
          bucketCount: 1,
          partDays: [{ from: since, to: until }],
          rollups: [],
        })
      }
    }
  })

  test('one whole day is the rollup alone', () => {
    const since = at('2026-05-01T00:00:00Z')
    expect(planWindow('day', since, at('2026-05-02T00:00:00Z'))).toEqual({
      firstBucket: dayOf(since),
      bucketCount: 1,
      partDays: [],
      rollups: [{ bucketDays: 1, from: dayOf(since), to: dayOf(since) + 1 }],
    })
  })

  test('weeks: whole weeks from the weekly rollup, days around them from the daily one', () => {
    // Friday noon to Wednesday of the third week after: Saturday and Sunday, two whole weeks
    // from Monday 2026-05-04, then Monday and Tuesday, then a part of Wednesday.
    const since = at('2026-05-01T12:00:00Z')
    const until = at('2026-05-20T06:00:00Z')
    const monday = dayOf(at('2026-05-04T00:00:00Z'))
    const week = bucketOfDay('week', monday)
    const plan = planWindow('week', since, until)
    expect(plan).toEqual({
      firstBucket: week - 1,
      bucketCount: 4,
      partDays: [
        { from: since, to: at('2026-05-02T00:00:00Z') },
        { from: at('2026-05-20T00:00:00Z'), to: until },
      ],
      rollups: [
        { bucketDays: 1, from: monday - 2, to: monday },
        { bucketDays: 7, from: week, to: week + 2 },
        { bucketDays: 1, from: monday + 14, to: monday + 16 },
      ],
    })
    expect(bucketStart('week', plan.firstBucket)).toBe(at('2026-04-27T00:00:00Z'))
    expect(bucketStart('week', week)).toBe(at('2026-05-04T00:00:00Z'))
  })

  test('weeks: Monday to Monday is the weekly rollup alone', () => {
    const since = at('2026-05-04T00:00:00Z')
    const week = bucketOfDay('week', dayOf(since))
    expect(planWindow('week', since, at('2026-05-18T00:00:00Z'))).toEqual({
      firstBucket: week,
      bucketCount: 2,
      partDays: [],
      rollups: [{ bucketDays: 7, from: week, to: week + 2 }],
    })
  })

  test('weeks: a window across one Monday with no whole week in it is read by day', () => {
    // Thursday to the next Wednesday: two buckets, six whole days, no whole week.
    const since = at('2026-04-30T00:00:00Z')
    const day = dayOf(since)
    expect(planWindow('week', since, at('2026-05-06T00:00:00Z'))).toEqual({
      firstBucket: bucketOfDay('week', day),
      bucketCount: 2,
      partDays: [],
      rollups: [{ bucketDays: 1, from: day, to: day + 6 }],
    })
  })

  test('weeks: a window ending 1 µs after a Monday starts a bucket of its own', () => {
    const since = at('2026-04-27T00:00:00Z')
    const monday = at('2026-05-04T00:00:00Z')
    const plan = planWindow('week', since, monday + 1n)
    expect(plan.bucketCount).toBe(2)
    expect(plan.partDays).toEqual([{ from: monday, to: monday + 1n }])
    expect(plan.rollups).toEqual([
      {
        bucketDays: 7,
        from: bucketOfDay('week', dayOf(since)),
        to: bucketOfDay('week', dayOf(monday)),
      },
    ])
    expect(planWindow('week', since, monday).bucketCount).toBe(1)
  })

  test('before 1970 days and weeks are negative and floor (1969-12-28 is week -1, 12-29 week 0)', () => {
    expect(dayOf(-1n)).toBe(-1)
    expect(dayOf(0n)).toBe(0)
    expect(dayOf(at('1969-12-31T23:59:59.999999Z'))).toBe(-1)
    expect(dayOf(at('1969-12-29T00:00:00Z'))).toBe(-3)
    expect(dayOf(at('1969-12-28T23:59:59.999999Z'))).toBe(-4)
    expect(bucketOfDay('week', -3)).toBe(0)
    expect(bucketOfDay('week', -4)).toBe(-1)
    expect(bucketStart('week', 0)).toBe(at('1969-12-29T00:00:00Z'))
    expect(bucketStart('week', -1)).toBe(at('1969-12-22T00:00:00Z'))

    const since = at('1969-12-28T12:00:00Z')
    const until = at('1970-01-06T00:00:00Z')
    expect(planWindow('week', since, until)).toEqual({
      firstBucket: -1,
      bucketCount: 3,
      partDays: [{ from: since, to: at('1969-12-29T00:00:00Z') }],
      rollups: [
        { bucketDays: 7, from: 0, to: 1 },
        { bucketDays: 1, from: 4, to: 5 },
      ],
    })
    expect(planWindow('day', at('1969-12-29T00:00:00Z'), at('1970-01-01T00:00:00Z'))).toEqual({
      firstBucket: -3,
      bucketCount: 3,
      partDays: [],
      rollups: [{ bucketDays: 1, from: -3, to: 0 }],
    })
    expect(planWindow('day', at('1969-12-31T18:00:00Z'), at('1970-01-01T06:00:00Z'))).toEqual({
      firstBucket: -1,
      bucketCount: 2,
      partDays: [
        { from: at('1969-12-31T18:00:00Z'), to: 0n },
        { from: 0n, to: at('1970-01-01T06:00:00Z') },
      ],
      rollups: [],
    })
  })

  test('blocks of 32 buckets floor before 1970', () => {
    expect(blocksOf({ bucketDays: 1, from: -1, to: 0 })).toEqual({ first: -1, last: -1 })
    expect(blocksOf({ bucketDays: 1, from: -33, to: -31 })).toEqual({ first: -2, last: -1 })
    expect(blocksOf({ bucketDays: 1, from: -32, to: 32 })).toEqual({ first: -1, last: 0 })
    expect(blocksOf({ bucketDays: 7, from: 31, to: 33 })).toEqual({ first: 0, last: 1 })
  })

  test('year 1: 0001-01-01 is a Monday, the first instant a client can send', () => {
    const day = dayOf(EARLIEST_MICROS)
    expect(day).toBe(-719_162)
    const week = bucketOfDay('week', day)
    expect(bucketStart('week', week)).toBe(EARLIEST_MICROS)
    expect(planWindow('week', EARLIEST_MICROS, EARLIEST_MICROS + 7n * DAY_MICROS)).toEqual({
      firstBucket: week,
      bucketCount: 1,
      partDays: [],
      rollups: [{ bucketDays: 7, from: week, to: week + 1 }],
    })
    const until = at('0001-01-03T01:00:00Z')
    expect(planWindow('day', EARLIEST_MICROS + 1n, until)).toEqual({
      firstBucket: day,
      bucketCount: 3,
      partDays: [
        { from: EARLIEST_MICROS + 1n, to: at('0001-01-02T00:00:00Z') },
        { from: at('0001-01-03T00:00:00Z'), to: until },
      ],
      rollups: [{ bucketDays: 1, from: day + 1, to: day + 2 }],
    })
  })

  test('year 9999: up to its last microsecond, and its last week that ends in year 10000', () => {
    const monday = at('9999-12-27T00:00:00Z')
    const week = bucketOfDay('week', dayOf(monday))
    const plan = planWindow('week', at('9999-12-20T00:00:00Z'), LATEST_MICROS)
    expect(plan).toEqual({
      firstBucket: week - 1,
      bucketCount: 2,
      partDays: [{ from: at('9999-12-31T00:00:00Z'), to: LATEST_MICROS }],
      rollups: [
        { bucketDays: 7, from: week - 1, to: week },
        { bucketDays: 1, from: dayOf(monday), to: dayOf(monday) + 4 },
      ],
    })
    expect(bucketStart('week', week)).toBe(monday)
    expect(planWindow('day', at('9999-12-31T00:00:00Z'), LATEST_MICROS + 1n)).toEqual({
      firstBucket: dayOf(LATEST_MICROS),
      bucketCount: 1,
      partDays: [],
      rollups: [{ bucketDays: 1, from: dayOf(LATEST_MICROS), to: dayOf(LATEST_MICROS) + 1 }],
    })
  })
})

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
