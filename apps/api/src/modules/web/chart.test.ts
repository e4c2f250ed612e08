import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { niceMax, type TrendChartOptions, trendChart } from './chart.ts'

const deployments = (value: number) => `${value} deployments`

function render(values: (number | null)[], options: Partial<TrendChartOptions> = {}): string {
  return trendChart({
    title: 'Deployments per week',
    description: 'Deployments rose from 3 to 9 a week.',
    points: values.map((value, index) => ({ label: `w${index}`, value })),
    format: deployments,
    kind: 'bars',
    id: 'deploys',
    ...options,
  }).text
}

type Attributes = Record<string, string>

/** The attributes of every `<name …>` start tag, in document order. */
function tags(svg: string, name: string, className?: string): Attributes[] {
  return [...svg.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))]
    .map((match) =>
      Object.fromEntries(
        [...(match[1] ?? '').matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, key, value]) => [
          key,
          value,
        ]),
      ),
    )
    .filter((attributes) => className === undefined || attributes.class === className)
}

/** The tooltip text of every drawn mark or gap column. */
function tooltips(svg: string): string[] {
  return [...svg.matchAll(/<(?:rect|circle)\b[^>]*><title>(.*?)<\/title>/g)].map(
    (match) => match[1] ?? '',
  )
}

/** Axis labels as [text, attributes]. */
function axisLabels(svg: string): { text: string; attributes: Attributes }[] {
  return [...svg.matchAll(/<text class="chart-axis-label"([^>]*)>(.*?)<\/text>/g)].map((match) => ({
    text: match[2] ?? '',
    attributes: Object.fromEntries(
      [...(match[1] ?? '').matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, key, value]) => [key, value]),
    ),
  }))
}

/** The [x, y] vertices of a path's d attribute. */
function vertices(d: string): [number, number][] {
  return [...d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((match) => [
    Number(match[1]),
    Number(match[2]),
  ])
}

function viewBox(svg: string): { width: number; height: number } {
  const [, , width, height] = (tags(svg, 'svg')[0]?.viewBox ?? '').split(' ').map(Number)
  return { width: width ?? Number.NaN, height: height ?? Number.NaN }
}

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
    expect(tooltips(svg)).toEqual(['w1: no data', 'w0: 1 deployments', 'w2: 2 deployments'])

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
