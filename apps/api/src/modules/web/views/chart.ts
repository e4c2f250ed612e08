// Weekly trends drawn on the server as inline SVG: the dashboard has no script, may run where no
// CDN is reachable, and its policy allows no inline style, so the markup carries geometry and the
// page stylesheet colours it through classes. The few presentation attributes below are there
// because without them the chart would be unreadable before (or without) the stylesheet.
import { type Html, html } from './html.ts'

export interface TrendPoint {
  /** Bucket start as shown on the axis and in the tooltip, e.g. '2026-05-04' or 'May 4'. */
  label: string
  /** null = no data in that bucket (draw a gap, never a zero). */
  value: number | null
}

export interface TrendChartOptions {
  /** Accessible name, e.g. 'Deployments per week'. */
  title: string
  /** One sentence summarizing the trend for screen readers; the chart appends nothing else. */
  description: string
  points: TrendPoint[]
  /** How a value reads on the axis and in each point's <title>, e.g. (v) => `${v} deployments`. */
  format: (value: number) => string
  /** 'bars' for counts (deployments, failures), 'line' for durations and ratios. */
  kind: 'bars' | 'line'
  /** Unique within the page, used to build ids for aria-labelledby. Only [a-z0-9-]. */
  id: string
  /** Optional fixed top of the y axis (e.g. 1 for ratios); default: a "nice" round max >= data max. */
  yMax?: number
}

// A fixed coordinate system scaled as a whole by width="100%", so text keeps its proportions. It
// is about the size the DORA cards show it at (260 px and up), so 11-unit text stays legible.
const WIDTH = 320
const HEIGHT = 160
// The y labels sit in a gutter left of the plot, start-anchored so a long formatted value runs
// into the plot rather than off the edge of the chart.
const GUTTER = 92
const RIGHT = WIDTH - 4
const TOP = 10
const BASELINE = HEIGHT - 22
const PLOT_HEIGHT = BASELINE - TOP
const FONT_SIZE = 11
const BAR_SHARE = 0.7
// A lone week would otherwise draw one slab across the chart.
const MAX_BAR_WIDTH = 32
const POINT_RADIUS = 3

const NICE_STEPS = [1, 2, 2.5, 5, 10]

/** A "nice" axis maximum >= value (1, 2, 2.5, 5, 10 × 10^n); 1 for 0 or no data. Exported for tests. */
export function niceMax(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 1
  // log10 may land a hair off at an exact power of ten; the step of 10 then still finds it.
  const decade = Math.floor(Math.log10(value))
  for (const step of NICE_STEPS) {
    // Parsed as a literal would be, the round number is exact: 5 * 10 ** -6 would read
    // 0.0000049999999999999996 on the axis.
    const candidate = Number(`${step}e${decade}`)
    if (!Number.isFinite(candidate)) break
    if (candidate >= value) return candidate
  }
  // Only near Number.MAX_VALUE, where the next round number does not exist.
  return value
}

/** Returns an Html (from html.ts) holding one <svg> element. */
export function trendChart(options: TrendChartOptions): Html {
  const { title, description, format, kind, id } = options
  // An id with a space or quote would silently break aria-labelledby; the ids are constants in
  // our pages, so failing loudly surfaces the mistake in tests.
  if (!/^[a-z0-9-]+$/.test(id)) throw new Error(`trendChart id must match [a-z0-9-]+: ${id}`)

  // NaN or Infinity means an upstream division went wrong: show it as missing rather than invent
  // a value. Negative values cannot occur in our data; clamping keeps the geometry inside the plot.
  const points = options.points.map(({ label, value }) => ({
    label,
    value: value === null || !Number.isFinite(value) ? null : Math.max(0, value),
  }))
  const values = points.flatMap((point) => (point.value === null ? [] : [point.value]))

  // direction="ltr": time runs left to right even on a right-to-left page, and the axis labels'
  // start/end anchors would otherwise flip and push them outside the chart. The kind class is not
  // chart-line: the stylesheet's stroke for that class would be inherited by every text and shape.
  const svgOpen = html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-labelledby="${id}-title ${id}-desc" class="chart chart-kind-${kind}" font-size="${FONT_SIZE}" direction="ltr">`
  const heading = html`<title id="${id}-title">${title}</title><desc id="${id}-desc">${description}</desc>`

  if (values.length === 0) {
    return html`${svgOpen}${heading}<text class="chart-empty" x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle">No data in this window</text></svg>`
  }

  const top =
    options.yMax !== undefined && Number.isFinite(options.yMax) && options.yMax > 0
      ? options.yMax
      : niceMax(values.reduce((max, value) => Math.max(max, value), 0))
  const slot = (RIGHT - GUTTER) / points.length
  const centerX = (index: number) => GUTTER + (index + 0.5) * slot
  // Values above a fixed yMax are pinned to the top instead of leaving the chart.
  const yOf = (value: number) => BASELINE - (Math.min(value, top) / top) * PLOT_HEIGHT

  // Counts never read "2.5 deployments", so bars drop a middle line that would not be whole.
  const middle = top / 2
  const gridValues = kind === 'line' || Number.isInteger(middle) ? [0, middle, top] : [0, top]
  const grid = gridValues.map((value) => {
    const y = round(yOf(value))
    return html`<line class="chart-grid" x1="${GUTTER}" x2="${RIGHT}" y1="${y}" y2="${y}" stroke="currentColor"/><text class="chart-axis-label" x="0" y="${round(y + FONT_SIZE / 3)}">${format(value)}</text>`
  })

  const last = points.length - 1
  const xLabels: { index: number; x: number; anchor: string }[] = [
    { index: 0, x: GUTTER, anchor: 'start' },
  ]
  if (points.length > 4) {
    const index = Math.floor(last / 2)
    xLabels.push({ index, x: centerX(index), anchor: 'middle' })
  }
  if (last > 0) xLabels.push({ index: last, x: RIGHT, anchor: 'end' })
  const axis = xLabels.map(
    ({ index, x, anchor }) =>
      html`<text class="chart-axis-label" x="${round(x)}" y="${HEIGHT - 6}" text-anchor="${anchor}">${points[index]?.label}</text>`,
  )

  // A missing bucket draws nothing, but its column still answers a hover with "no data".
  const gaps = points.map((point, index) =>
    point.value === null
      ? html`<rect x="${round(GUTTER + index * slot)}" y="${TOP}" width="${round(slot)}" height="${PLOT_HEIGHT}" fill="transparent"><title>${point.label}: no data</title></rect>`
      : '',
  )

  const marks =
    kind === 'bars' ? bars(points, slot, yOf, format) : line(points, centerX, yOf, format)

  return html`${svgOpen}${heading}${grid}${axis}${gaps}${marks}</svg>`
}

function bars(
  points: TrendPoint[],
  slot: number,
  yOf: (value: number) => number,
  format: (value: number) => string,
): Html[] {
  const width = Math.min(slot * BAR_SHARE, MAX_BAR_WIDTH)
  return points.map((point, index) => {
    if (point.value === null) return html``
    const y = yOf(point.value)
    const x = GUTTER + index * slot + (slot - width) / 2
    return html`<rect class="chart-bar" x="${round(x)}" y="${round(y)}" width="${round(width)}" height="${round(BASELINE - y)}"><title>${point.label}: ${format(point.value)}</title></rect>`
  })
}

function line(
  points: TrendPoint[],
  centerX: (index: number) => number,
  yOf: (value: number) => number,
  format: (value: number) => string,
): Html[] {
  // A gap ends the path: joining across it would claim a trend through a week we know nothing of.
  const runs: string[][] = []
  let run: string[] | undefined
  points.forEach((point, index) => {
    if (point.value === null) {
      run = undefined
      return
    }
    if (!run) {
      run = []
      runs.push(run)
    }
    run.push(`${run.length ? 'L' : 'M'}${round(centerX(index))} ${round(yOf(point.value))}`)
  })
  const paths = runs.map(
    (commands) =>
      html`<path class="chart-line" d="${commands.join(' ')}" fill="none" stroke="currentColor" stroke-width="2"/>`,
  )
  const circles = points.map((point, index) =>
    point.value === null
      ? html``
      : html`<circle class="chart-point" cx="${round(centerX(index))}" cy="${round(yOf(point.value))}" r="${POINT_RADIUS}"><title>${point.label}: ${format(point.value)}</title></circle>`,
  )
  return [...paths, ...circles]
}

// At most two decimals keeps the markup short and identical across runs; the guard is the last
// line of defence against a NaN reaching an attribute.
function round(value: number): number {
  const rounded = Math.round(value * 100) / 100
  return Number.isFinite(rounded) ? rounded : 0
}
