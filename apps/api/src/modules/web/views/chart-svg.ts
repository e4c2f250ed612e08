// Reads a drawn chart back for its tests: the tags, tooltips, axis labels and path vertices of
// the SVG that trendChart returns.

import { type TrendChartOptions, trendChart } from './chart.ts'
import { counted } from './format.ts'

const deployments = (value: number) => counted(value, 'deployment')

/** A bar chart of `values` (deployments per week), with `options` overriding any default. */
export function render(
  values: (number | null)[],
  options: Partial<TrendChartOptions> = {},
): string {
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

/** A tag's attributes by name. */
export type Attributes = Record<string, string>

/** The attributes of every `<name …>` start tag, in document order. */
export function tags(svg: string, name: string, className?: string): Attributes[] {
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
export function tooltips(svg: string): string[] {
  return [...svg.matchAll(/<(?:rect|circle)\b[^>]*><title>(.*?)<\/title>/g)].map(
    (match) => match[1] ?? '',
  )
}

/** Axis labels as [text, attributes]. */
export function axisLabels(svg: string): { text: string; attributes: Attributes }[] {
  return [...svg.matchAll(/<text class="chart-axis-label"([^>]*)>(.*?)<\/text>/g)].map((match) => ({
    text: match[2] ?? '',
    attributes: Object.fromEntries(
      [...(match[1] ?? '').matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, key, value]) => [key, value]),
    ),
  }))
}

/** The [x, y] vertices of a path's d attribute. */
export function vertices(d: string): [number, number][] {
  return [...d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((match) => [
    Number(match[1]),
    Number(match[2]),
  ])
}

/** The width and height of the chart's coordinate system. */
export function viewBox(svg: string): { width: number; height: number } {
  const [, , width, height] = (tags(svg, 'svg')[0]?.viewBox ?? '').split(' ').map(Number)
  return { width: width ?? Number.NaN, height: height ?? Number.NaN }
}
