import { describe, expect, test } from 'bun:test'
import { inPipelineOrder, placeByRule } from './environment-order.ts'

describe('placeByRule', () => {
  test.each([
    ['dev', 10, false],
    ['Development', 10, false],
    ['test', 20, false],
    ['QA', 20, false],
    ['integration', 30, false],
    ['staging', 40, false],
    ['eu-stage', 40, false],
    ['preprod', 40, false],
    ['pre-prod', 40, false],
    ['production', 50, true],
    ['eu-production', 50, true],
    ['prod_us', 50, true],
    ['PRD', 50, true],
    ['live', 50, true],
    ['non-prod', 30, false],
    ['delivery', 30, false],
    ['products', 30, false],
    ['olive', 30, false],
  ])('%p stands at %p, production %p', (name, position, production) => {
    expect(placeByRule(name)).toEqual({ position, production })
  })
})

describe('inPipelineOrder', () => {
  const stored = (
    name: string,
    position: number | null = null,
    production: boolean | null = null,
  ) => ({
    name,
    position,
    production,
  })

  test('the issue’s example reads dev, staging, then the two productions', () => {
    const names = ['dev', 'eu-production', 'production', 'staging'].map((name) => stored(name))
    expect(inPipelineOrder(names).map((e) => [e.name, e.position, e.production])).toEqual([
      ['dev', 10, false],
      ['staging', 40, false],
      ['eu-production', 50, true],
      ['production', 50, true],
    ])
  })

  test('what was set wins over the rule; unknown names sit between, alphabetically', () => {
    const order = inPipelineOrder([
      stored('staging'),
      stored('zeta'),
      stored('Alpha'),
      stored('canary', 45, true),
      stored('dev', null, true),
      stored('production', 5, false),
    ])
    expect(order.map((e) => [e.name, e.position, e.production])).toEqual([
      ['production', 5, false],
      ['dev', 10, true],
      ['Alpha', 30, false],
      ['zeta', 30, false],
      ['staging', 40, false],
      ['canary', 45, true],
    ])
  })
})
