import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { axisLabels, render, tags, tooltips, vertices, viewBox } from './chart-svg.ts'

describe('trendChart axes and data', () => {
  test('labels the y axis with 0, the middle and a nice max through format', () => {
    const svg = render([3, 7], { kind: 'line', format: (value) => `${value} h` })
    const yLabels = axisLabels(svg).filter((label) => label.attributes['text-anchor'] === undefined)
    expect(yLabels.map((label) => label.text)).toEqual(['0 h', '5 h', '10 h'])
    expect(tags(svg, 'line', 'chart-grid')).toHaveLength(3)
  })

  test('counts never get a fractional middle gridline', () => {
    const bars = render([1, 4])
    expect(axisLabels(bars).map((label) => label.text)).not.toContain('2.5 deployments')
    expect(tags(bars, 'line', 'chart-grid')).toHaveLength(2)
    // A whole middle is kept, and a line chart keeps its fractional one.
    expect(tags(render([1, 7]), 'line', 'chart-grid')).toHaveLength(3)
    expect(axisLabels(render([1, 4], { kind: 'line' })).map((label) => label.text)).toContain(
      '2.5 deployments',
    )
  })

  test('labels the first and last buckets, and the middle one past four, inside the chart', () => {
    const four = axisLabels(render([1, 2, 3, 4])).filter(
      (label) => label.attributes['text-anchor'] !== undefined,
    )
    expect(four.map((label) => [label.text, label.attributes['text-anchor']])).toEqual([
      ['w0', 'start'],
      ['w3', 'end'],
    ])

    const svg = render([1, 2, 3, 4, 5, 6, 7])
    const { width } = viewBox(svg)
    const xLabels = axisLabels(svg).filter((label) => label.attributes['text-anchor'] !== undefined)
    expect(xLabels.map((label) => [label.text, label.attributes['text-anchor']])).toEqual([
      ['w0', 'start'],
      ['w3', 'middle'],
      ['w6', 'end'],
    ])
    // The first label starts inside and the last ends inside, however long they are.
    expect(Number(xLabels[0]?.attributes.x)).toBeGreaterThanOrEqual(0)
    expect(Number(xLabels[2]?.attributes.x)).toBeLessThanOrEqual(width)

    const single = axisLabels(render([1])).filter((label) => label.attributes['text-anchor'])
    expect(single.map((label) => label.text)).toEqual(['w0'])
  })

  test('respects a fixed yMax, pins values above it to the top, ignores an unusable one', () => {
    const ratio = (value: number) => `${Math.round(value * 100)}%`
    const fixed = render([0.25, 0.5], { kind: 'line', yMax: 1, format: ratio })
    expect(axisLabels(fixed).map((label) => label.text)).toContain('100%')
    const auto = render([0.25, 0.5], { kind: 'line', format: ratio })
    expect(axisLabels(auto).map((label) => label.text)).toContain('50%')
    expect(axisLabels(auto).map((label) => label.text)).not.toContain('100%')

    // 0.5 of 1 sits halfway between the 0 and 1 gridlines.
    const [zero, , top] = tags(fixed, 'line', 'chart-grid').map((line) => Number(line.y1))
    const half = Number(tags(fixed, 'circle', 'chart-point')[1]?.cy)
    expect(half).toBeCloseTo(((zero ?? 0) + (top ?? 0)) / 2, 1)

    const over = render([0.5, 3], { kind: 'line', yMax: 1 })
    expect(Number(tags(over, 'circle', 'chart-point')[1]?.cy)).toBe(top ?? Number.NaN)
    const tall = render([0.5, 3], { yMax: 1 })
    const bar = tags(tall, 'rect', 'chart-bar')[1]
    expect(Number(bar?.y)).toBe(top ?? Number.NaN)

    for (const yMax of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(axisLabels(render([3, 7], { yMax })).map((label) => label.text)).toContain(
        '10 deployments',
      )
    }
  })

  test('clamps a negative value to zero instead of drawing below the axis', () => {
    const svg = render([-5, 10])
    const [negative] = tags(svg, 'rect', 'chart-bar')
    expect(Number(negative?.height)).toBe(0)
    expect(tooltips(svg)).toContain('w0: 0 deployments')
    expect(svg).not.toContain('-5')
  })

  test('says so when there is no data, keeping the accessible name', () => {
    for (const values of [[], [null, null], [Number.NaN, Number.POSITIVE_INFINITY]]) {
      for (const kind of ['bars', 'line'] as const) {
        const svg = render(values, { kind })
        expect(svg).toContain('<text class="chart-empty"')
        expect(svg).toContain('>No data in this window</text>')
        expect(svg).toContain('<title id="deploys-title">')
        expect(svg).toContain('<desc id="deploys-desc">')
        expect(svg).not.toContain('class="chart-bar"')
        expect(svg).not.toContain('class="chart-line"')
        expect(svg).not.toContain('class="chart-point"')
        expect(svg).not.toContain('class="chart-grid"')
      }
    }
  })

  test('any data gives one well-formed, style-free SVG with finite coordinates in view', () => {
    const value = fc.oneof(
      fc.constant(null),
      fc.double(),
      fc.nat(10_000),
      fc.constantFrom(0, -0, 1e308, -1e308, Number.MIN_VALUE, 1e-9, 1e21, 0.1 + 0.2),
    )
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 60 }),
        fc.constantFrom('bars', 'line'),
        fc.option(fc.double(), { nil: undefined }),
        (values, kind, yMax) => {
          const formatted: number[] = []
          const format = (v: number) => {
            formatted.push(v)
            return `${v} ms`
          }
          const svg = render(values, { kind, yMax, format })
          expect(render(values, { kind, yMax, format })).toBe(svg)

          expect(svg).not.toContain('NaN')
          expect(svg).not.toContain('Infinity')
          expect(svg).not.toMatch(/style/i)
          expect(svg.startsWith('<svg ')).toBe(true)
          expect(svg.endsWith('</svg>')).toBe(true)
          expect(svg.match(/<svg\b/g)).toHaveLength(1)
          for (const v of formatted) expect(Number.isFinite(v) && v >= 0).toBe(true)

          const drawn = values.filter((v) => v !== null && Number.isFinite(v)).length
          const marks = kind === 'bars' ? tags(svg, 'rect', 'chart-bar') : tags(svg, 'circle')
          expect(marks).toHaveLength(drawn)

          const { width, height } = viewBox(svg)
          const coordinates = [
            ...[...svg.matchAll(/ (?:x|x1|x2|cx|width)="([^"%]*)"/g)].map((m) => [m[1], width]),
            ...[...svg.matchAll(/ (?:y|y1|y2|cy|height)="([^"%]*)"/g)].map((m) => [m[1], height]),
            ...[...svg.matchAll(/ d="([^"]*)"/g)].flatMap((m) =>
              vertices(m[1] ?? '').flatMap(([x, y]) => [
                [String(x), width],
                [String(y), height],
              ]),
            ),
          ] as [string, number][]
          for (const [text, limit] of coordinates) {
            expect(text).toMatch(/^\d+(\.\d{1,2})?$/)
            expect(Number(text)).toBeLessThanOrEqual(limit)
          }
        },
      ),
    )
  })
})
