import { readdirSync, readFileSync } from 'node:fs'
import { CHART } from './manifests.ts'
import { metricNames } from './promql.ts'

/** Where the chart keeps its Grafana dashboards; the Kustomize component holds copies. */
export const DASHBOARDS = `${CHART}/files/dashboards`

interface Variable {
  name: string
  type: string
  query?: string | { query?: string }
  options?: { text: string | string[]; value: string | string[] }[]
}
interface Panel {
  id: number
  type: string
  panels?: Panel[]
  targets?: { refId: string; expr: string }[]
}
/** The parts of a dashboard's JSON these checks read. */
export interface Dashboard {
  uid: string
  title: string
  panels: Panel[]
  templating: { list: Variable[] }
}

/** Each dashboard file's name, its text and its parsed JSON. */
export function dashboards(): { file: string; text: string; json: Dashboard }[] {
  return readdirSync(DASHBOARDS)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const text = readFileSync(`${DASHBOARDS}/${file}`, 'utf8')
      return { file, text, json: JSON.parse(text) }
    })
}

/**
 * Every PromQL expression of a dashboard, as written (with Grafana's variables), named after
 * where it is: the panels' queries, and the series a query variable reads its values from.
 */
export function dashboardExpressions(dashboard: Dashboard): { name: string; expr: string }[] {
  const prefix = `dashboard:${dashboard.uid.replaceAll('-', '_')}`
  const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])])
  const queries = panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      name: `${prefix}:panel${panel.id}_${target.refId}`,
      expr: target.expr,
    })),
  )
  const variables = dashboard.templating.list.flatMap((variable) => {
    if (variable.type !== 'query') return []
    const query = typeof variable.query === 'string' ? variable.query : variable.query?.query
    // Grafana's own functions, not PromQL: label_values(<selector>, <label>) and query_result(<expr>).
    const inner = /^(?:label_values\((.+),\s*\w+\)|query_result\((.+)\))$/.exec(query ?? '')
    if (!inner) throw new Error(`variable ${variable.name}: unsupported query ${query}`)
    return [{ name: `${prefix}:variable_${variable.name}`, expr: inner[1] ?? inner[2] ?? '' }]
  })
  return [...queries, ...variables]
}

/**
 * An expression with Grafana's variables replaced by sample values, so promtool can parse it: a
 * custom variable's first option (`${name:text}` its text), a query variable's `sample`, and
 * 5m for the interval built-ins. An unknown variable or format is left as it is, which
 * promtool then refuses.
 */
export function withSampleValues(expr: string, dashboard: Dashboard): string {
  const samples = new Map<string, { text: string; value: string }>(
    ['__rate_interval', '__interval', '__range'].map((name) => [name, { text: '5m', value: '5m' }]),
  )
  for (const variable of dashboard.templating.list) {
    const first = variable.options?.[0]
    samples.set(
      variable.name,
      variable.type === 'custom' && first
        ? { text: String(first.text), value: String(first.value) }
        : { text: 'sample', value: 'sample' },
    )
  }
  return expr.replace(/\$\{(\w+)(?::(\w+))?\}|\$(\w+)/g, (match, braced, format, plain) => {
    const sample = samples.get(braced ?? plain)
    if (!sample || (format !== undefined && format !== 'text')) return match
    return format === 'text' ? sample.text : sample.value
  })
}

/**
 * Every series name the dashboards query, sorted, as a scrape of Shiplog's /metrics shows it
 * (a histogram by its `_bucket`, `_sum` or `_count` series). `up`, which Prometheus makes
 * itself and no process exports, is left out.
 */
export function dashboardMetricNames(): string[] {
  const names = dashboards().flatMap(({ json }) =>
    dashboardExpressions(json).flatMap(({ expr }) => metricNames(withSampleValues(expr, json))),
  )
  return [...new Set(names)].filter((name) => name !== 'up').sort()
}
