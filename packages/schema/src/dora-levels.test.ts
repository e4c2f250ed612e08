import { expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { DORA_2024_LEVELS, DORA_2025_FACTORS, DoraLevels, doraLevel } from './dora-levels.ts'

const HOUR = 3_600
const DAY = 24 * HOUR
const tierOf = (key: Parameters<typeof doraLevel>[1], value: number | null) =>
  doraLevel(DORA_2024_LEVELS, key, value).tier

test('deployment frequency: once a day is high, more is elite, less than every six months has no tier', () => {
  expect(tierOf('deploymentFrequency', 3)).toBe('elite')
  expect(tierOf('deploymentFrequency', 1)).toBe('high')
  expect(tierOf('deploymentFrequency', 1 / 7)).toBe('high')
  expect(tierOf('deploymentFrequency', 1 / 10)).toBe('medium')
  expect(tierOf('deploymentFrequency', 1 / 60)).toBe('low')
  const yearly = doraLevel(DORA_2024_LEVELS, 'deploymentFrequency', 1 / 365)
  expect(yearly.tier).toBeNull()
  expect(yearly.notes).toEqual(['outside every range of the 2024 table'])
})

test('change lead time by the published ranges, in seconds', () => {
  expect(tierOf('changeLeadTime', 2 * HOUR)).toBe('elite')
  expect(tierOf('changeLeadTime', DAY)).toBe('high')
  expect(tierOf('changeLeadTime', 8 * DAY)).toBe('medium')
  expect(tierOf('changeLeadTime', 40 * DAY)).toBe('low')
  expect(tierOf('changeLeadTime', 200 * DAY)).toBeNull()
})

test('change fail rate: the nearest published value, the table’s inversion said on every answer', () => {
  const twelve = doraLevel(DORA_2024_LEVELS, 'changeFailRate', 0.12)
  expect(twelve.tier).toBe('medium')
  expect(twelve.label).toBe('10%')
  expect(twelve.notes).toContain("the table's medium tier (10%) is lower than its high tier (20%)")
  // Worse than 12 %, yet nearer high's 20 %: the oddity is the report's, kept as published.
  expect(tierOf('changeFailRate', 0.17)).toBe('high')
  // Equally near 10 % and 20 %: the better tier.
  expect(tierOf('changeFailRate', 0.15)).toBe('high')
  expect(tierOf('changeFailRate', 0)).toBe('elite')
  expect(tierOf('changeFailRate', 0.6)).toBe('low')
})

test('recovery time: high and medium share a range; one day to one week has no tier', () => {
  expect(tierOf('failedDeploymentRecoveryTime', 30 * 60)).toBe('elite')
  const hours = doraLevel(DORA_2024_LEVELS, 'failedDeploymentRecoveryTime', 5 * HOUR)
  expect(hours.tier).toBe('high')
  expect(hours.notes).toEqual(['the table gives high and medium the same range'])
  expect(tierOf('failedDeploymentRecoveryTime', 3 * DAY)).toBeNull()
  expect(tierOf('failedDeploymentRecoveryTime', 14 * DAY)).toBe('low')
})

test('deployment rework rate has no published tier, and no data is no tier', () => {
  const rework = doraLevel(DORA_2024_LEVELS, 'deploymentReworkRate', 0.1)
  expect(rework).toMatchObject({ tier: null, year: 2024 })
  expect(rework.notes[0]).toContain('publishes no tier')
  expect(doraLevel(DORA_2024_LEVELS, 'changeLeadTime', null)).toMatchObject({
    tier: null,
    notes: ['no data in this window'],
  })
})

test('the table is data an operator may replace: the 2024 one validates, a misspelt key does not', () => {
  expect(Value.Check(DoraLevels, DORA_2024_LEVELS)).toBe(true)
  const misspelt = { ...DORA_2024_LEVELS, leadTime: DORA_2024_LEVELS.changeLeadTime }
  expect(Value.Check(DoraLevels, misspelt)).toBe(false)
  const replaced = {
    ...DORA_2024_LEVELS,
    report: 'Our own targets',
    year: 2026,
    changeFailRate: { ranges: [{ tier: 'elite', label: 'under 10%', below: 0.1 }] },
  }
  expect(Value.Check(DoraLevels, replaced)).toBe(true)
  expect(doraLevel(replaced as DoraLevels, 'changeFailRate', 0.05)).toMatchObject({
    tier: 'elite',
    report: 'Our own targets',
    year: 2026,
    notes: [],
  })
})

test('the 2025 view groups the five keys, each once, into throughput and instability', () => {
  const keys = [...DORA_2025_FACTORS.throughput, ...DORA_2025_FACTORS.instability]
  expect(keys.sort()).toEqual([
    'changeFailRate',
    'changeLeadTime',
    'deploymentFrequency',
    'deploymentReworkRate',
    'failedDeploymentRecoveryTime',
  ])
})
