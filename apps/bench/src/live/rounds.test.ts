import { describe, expect, test } from 'bun:test'
import { drainPlan } from './rounds.ts'

const label = (variant: { concurrency: number; holdSnapshot: boolean }) =>
  `${variant.concurrency}${variant.holdSnapshot ? 'held' : ''}`

describe('drainPlan', () => {
  test('runs every variant once a round, each round starting one variant later', () => {
    expect(drainPlan(3, true).map(label)).toEqual([
      '1',
      '2',
      '1held',
      '2',
      '1held',
      '1',
      '1held',
      '1',
      '2',
    ])
  })

  test('without the snapshot, the two concurrencies alternate which goes first', () => {
    expect(drainPlan(2, false).map(label)).toEqual(['1', '2', '2', '1'])
  })
})
