import { describe, expect, test } from 'bun:test'
import { EARLIEST_MICROS, LATEST_MICROS } from '@shiplog/schema'
import { microsOf as at } from '../testing/recorded-jobs.ts'
import { blocksOf, bucketOfDay, bucketStart, DAY_MICROS, dayOf, planWindow } from './time-units.ts'

// Worked examples of plans: aligned and unaligned windows, days and weeks, windows inside one day,
// 1970, and the first and last years a client can send. window-plan-property.test.ts checks
// random windows against the calendar.

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
