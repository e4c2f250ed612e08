import { describe, expect, test } from 'bun:test'
import { drainPlan } from './rounds.ts'

const label = (variant: { concurrency: number; holdSnapshot: boolean; comparison: string }) =>
  `${variant.comparison} ${variant.concurrency}${variant.holdSnapshot ? ' held' : ''}`

describe('drainPlan', () => {
  test('alternates which concurrency drains first, round after round', () => {
    expect(drainPlan(3, false).map(label).join(', ')).toBe(
      'sizes 1, sizes 2, sizes 2, sizes 1, sizes 1, sizes 2',
    )
  })

  test('compares the held snapshot after the sizes, against drains of its own', () => {
    expect(drainPlan(2, true).map(label).join(', ')).toBe(
      'sizes 1, sizes 2, sizes 2, sizes 1, snapshot 1 held, snapshot 1, snapshot 1, snapshot 1 held',
    )
  })
})
