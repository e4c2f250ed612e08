import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { niceMax, trendChart } from './chart.ts'
import { axisLabels, render, tags, tooltips, vertices } from './chart-svg.ts'

describe('niceMax', () => {
  test.each([
    [0, 1],
    [0.3, 0.5],
    [7, 10],
    [11, 20],
    [240, 250],
    [1e6, 1e6],
    [1, 1],
    [2.2, 2.5],
    [0.001, 0.001],
    [4e-6, 5e-6],
    [2.4e-30, 2.5e-30],
    [Number.NaN, 1],
    [-5, 1],
  ])('niceMax(%p) = %p', (value, expected) => {
    expect(niceMax(value)).toBe(expected)
  })

  test('is the smallest 1, 2, 2.5, 5 or 10 × 10^n at or above the value', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), (value) => {
        const max = niceMax(value)
        expect(max).toBeGreaterThanOrEqual(value)
        // The next step up is never more than double, so a nice max never wastes over half the axis.
        expect(max).toBeLessThanOrEqual(value * 2)
        const mantissa = Number((max / 10 ** Math.floor(Math.log10(max))).toPrecision(12))
        expect([1, 2, 2.5, 5]).toContain(mantissa)
      }),
    )
  })
})

describe('trendChart', () => {
  test('escapes labels, title, description and formatted values, RTL text included', () => {
    const svg = trendChart({
      title: 'Deploys "weekly" & <b>more</b>',
      description: "It's <img src=x onerror=alert(1)>",
      points: [
        { label: '<script>alert(1)</script>', value: 3 },
        { label: 'أسبوع ٥ <i>', value: 4 },
      ],
      format: (value) => `<em>${value}</em>`,
      kind: 'line',
      id: 'escape',
    }).text

    for (const rawText of ['<script', '<b>', '<img', '<i>', '<em>']) {
      expect(svg).not.toContain(rawText)
    }
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;: &lt;em&gt;3&lt;/em&gt;')
    expect(svg).toContain('Deploys &quot;weekly&quot; &amp; &lt;b&gt;more&lt;/b&gt;')
    expect(svg).toContain('It&#39;s &lt;img src=x onerror=alert(1)&gt;')
    // Right-to-left text passes through untouched apart from the markup characters around it.
    expect(tooltips(svg)).toContain('أسبوع ٥ &lt;i&gt;: &lt;em&gt;4&lt;/em&gt;')
    expect(axisLabels(svg).map((label) => label.text)).toContain('أسبوع ٥ &lt;i&gt;')
    // Pinned left to right so an RTL page cannot flip the axis label anchors off the chart.
    expect(tags(svg, 'svg')[0]?.direction).toBe('ltr')
  })

  test('wires the accessible name and description by id, and adds nothing to the description', () => {
    const svg = render([1, 2], { id: 'lead-time-2' })
    const root = tags(svg, 'svg')[0]
    expect(root?.role).toBe('img')
    expect(root?.['aria-labelledby']).toBe('lead-time-2-title lead-time-2-desc')
    expect(svg).toContain('<title id="lead-time-2-title">Deployments per week</title>')
    expect(svg).toContain('<desc id="lead-time-2-desc">Deployments rose from 3 to 9 a week.</desc>')
    expect(svg.match(/id="lead-time-2-title"/g)).toHaveLength(1)
    expect(svg.match(/id="lead-time-2-desc"/g)).toHaveLength(1)
  })

  test('refuses an id that would break aria-labelledby', () => {
    expect(() => render([1], { id: 'two words' })).toThrow()
    expect(() => render([1], { id: 'Upper' })).toThrow()
    expect(() => render([1], { id: '' })).toThrow()
  })

  test('scales with the page through a fixed viewBox rather than stretching', () => {
    const root = tags(render([1, 2]), 'svg')[0]
    expect(root?.width).toBe('100%')
    expect(root?.preserveAspectRatio).toBeUndefined()
    expect(root?.height).toBeUndefined()
    expect(root?.class).toBe('chart chart-kind-bars')
    // Never the marks' own classes: the stylesheet's stroke for .chart-line would be inherited by
    // every label and shape in a line chart.
    const line = render([1, 2], { kind: 'line' })
    expect(tags(line, 'svg')[0]?.class).toBe('chart chart-kind-line')
    for (const className of ['chart-bar', 'chart-line', 'chart-point', 'chart-grid']) {
      expect(root?.class?.split(' ')).not.toContain(className)
      expect(tags(line, 'svg')[0]?.class?.split(' ')).not.toContain(className)
    }
  })

  test('a gap in a line splits the path and draws no point, never a zero', () => {
    const svg = render([1, null, 2], { kind: 'line' })
    const paths = tags(svg, 'path', 'chart-line')
    expect(paths).toHaveLength(2)
    expect(tags(svg, 'circle', 'chart-point')).toHaveLength(2)
    expect(tooltips(svg)).toEqual(['w1: no data', 'w0: 1 deployment', 'w2: 2 deployments'])

    const split = render([3, 4, null, null, 5, 6, 7], { kind: 'line' })
    expect(tags(split, 'path', 'chart-line').map((path) => vertices(path.d ?? '').length)).toEqual([
      2, 3,
    ])

    // Around a gap every vertex stays at the value's height: nothing dips to the baseline.
    const level = render([5, null, 5], { kind: 'line' })
    const ys = tags(level, 'path', 'chart-line').flatMap((path) =>
      vertices(path.d ?? '').map(([, y]) => y),
    )
    expect(new Set(ys).size).toBe(1)
    expect(render([0, null, 0], { kind: 'line' })).not.toContain(`cy="${ys[0]}"`)
  })

  test('an unbroken line is one path through every point, left to right', () => {
    const svg = render([1, 3, 2], { kind: 'line', yMax: 4 })
    const paths = tags(svg, 'path', 'chart-line')
    expect(paths).toHaveLength(1)
    const points = vertices(paths[0]?.d ?? '')
    expect(points).toHaveLength(3)
    const [first, second, third] = points.map(([, y]) => y)
    // SVG y grows downwards: the highest value has the smallest y.
    expect(second).toBeLessThan(third ?? 0)
    expect(third).toBeLessThan(first ?? 0)
    expect(points.map(([x]) => x)).toEqual([...points.map(([x]) => x)].sort((a, b) => a - b))
    // The path itself must not be filled, or the area under it would turn black without CSS.
    expect(paths[0]?.fill).toBe('none')
  })

  test('draws one bar per bucket with data, zero included, and none for a missing one', () => {
    const values = [4, null, 0, 8, null]
    const svg = render(values)
    const bars = tags(svg, 'rect', 'chart-bar')
    expect(bars).toHaveLength(values.filter((value) => value !== null).length)
    expect(bars.map((bar) => Number(bar.height))).toEqual([
      expect.any(Number),
      0,
      expect.any(Number),
    ])
    // Height is proportional to the value on a 0-based axis.
    const [four, , eight] = bars.map((bar) => Number(bar.height))
    expect(eight).toBeCloseTo((four ?? 0) * 2, 1)
    expect(tooltips(svg)).toEqual([
      'w1: no data',
      'w4: no data',
      'w0: 4 deployments',
      'w2: 0 deployments',
      'w3: 8 deployments',
    ])
    // A missing bucket's hover area is invisible.
    for (const rect of tags(svg, 'rect').filter((rect) => rect.class === undefined)) {
      expect(rect.fill).toBe('transparent')
    }
  })
})
