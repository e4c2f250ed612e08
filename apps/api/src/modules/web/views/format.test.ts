import { expect, test } from 'bun:test'
import { age, duration, durationAxisTop, percent, utc } from './format.ts'

test('durations read as people say them, never negative, and null is "no data"', () => {
  expect(duration(null)).toBe('no data')
  expect(duration(-5)).toBe('0 s')
  expect(duration(44.6)).toBe('45 s')
  expect(duration(600)).toBe('10 min')
  expect(duration(3_600)).toBe('1 h')
  expect(duration(12_000)).toBe('3 h 20 min')
  expect(duration(172_800)).toBe('2 d')
  expect(duration(180_000)).toBe('2 d 2 h')
})

test('times are UTC to the minute; ratios are percentages; ages count back from now', () => {
  expect(utc('2026-05-04T10:07:59.123Z')).toBe('2026-05-04 10:07 UTC')
  expect(percent(null)).toBe('no data')
  expect(percent(0.125)).toBe('12.5 %')
  expect(age('2026-05-04T10:00:00Z', new Date('2026-05-04T13:00:00Z'))).toBe('3 h ago')
  expect(age('2026-05-05T10:00:00Z', new Date('2026-05-04T13:00:00Z'))).toBe('in the future')
})

test('duration axes top out at a whole time, so their gridlines read as whole times', () => {
  expect(durationAxisTop(0)).toBeUndefined()
  expect(durationAxisTop(45)).toBe(60)
  expect(durationAxisTop(100_000)).toBe(172_800)
  expect(duration(172_800 / 2)).toBe('24 h')
  expect(durationAxisTop(5_400)).toBe(7_200)
  expect(durationAxisTop(1e12)).toBe(1e12)
})
