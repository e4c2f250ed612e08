import type { DoraFigures, DoraMetrics } from '@shiplog/schema'
import { trendChart } from './chart.ts'
import { type ApplicationFigures, applicationsTable } from './dora-applications.ts'
import {
  type CountedScope,
  commitList,
  countedScope,
  deploymentList,
  LIST_FILTERS,
  seriesCsv,
} from './dora-links.ts'
import { type DoraSelection, defaultOrder, RANGE_LABELS, RANGES } from './dora-selection.ts'
import { counted, duration, durationAxisTop, percent, utc } from './format.ts'
import { bdi, type Html, html } from './html.ts'
import type { PageContent } from './layout.ts'

/** What the page sets beside the window: the period before it, and each application. */
export interface DoraComparisonView {
  previous: DoraFigures & { since: string; until: string }
  applications: ApplicationFigures[]
}

interface Key {
  id: string
  title: string
  figure: (figures: DoraFigures) => string
  /** What the figure counted, each count a link to the rows it counts. */
  detail: (figures: DoraFigures, rows: RowLinks) => Html
  value: (figures: DoraFigures) => number | null
  kind: 'bars' | 'line'
  format: (value: number) => string
  /** Durations get axes in whole times, not decimal seconds. */
  durations?: true
  definition: string
}

const KEYS: Key[] = [
  {
    id: 'frequency',
    title: 'Deployment frequency',
    figure: (f) => `${f.deploymentFrequency.perDay.toFixed(2)} / day`,
    detail: (f, rows) =>
      rows.list(LIST_FILTERS.deployments, counted(f.deploymentFrequency.deployments, 'deployment')),
    value: (f) => f.deploymentFrequency.deployments,
    kind: 'bars',
    format: (v) => counted(Math.round(v), 'deployment'),
    definition:
      'Recorded deployments to the environment in the window (voided ones left out), per day.',
  },
  {
    id: 'lead-time',
    title: 'Change lead time',
    figure: (f) => duration(f.changeLeadTime.medianSeconds),
    detail: (f, rows) =>
      html`median of ${rows.commits(counted(f.changeLeadTime.commits, 'commit'))}; 90th percentile ${duration(f.changeLeadTime.p90Seconds)}`,
    value: (f) => f.changeLeadTime.medianSeconds,
    kind: 'line',
    format: (v) => duration(v),
    durations: true,
    definition:
      "For each commit first delivered to the environment by a deployment in the window: that deployment's deployedAt minus the commit's committer time. Commits of an application's first deployment are left out.",
  },
  {
    id: 'fail-rate',
    title: 'Change fail rate',
    figure: (f) => percent(f.changeFailRate.ratio),
    detail: (f, rows) =>
      html`${rows.list(LIST_FILTERS.failedChanges, `${f.changeFailRate.failed} failed`)} of ${rows.list(LIST_FILTERS.changes, counted(f.changeFailRate.deployments, 'change'))}`,
    value: (f) => f.changeFailRate.ratio,
    kind: 'line',
    format: (v) => percent(v),
    definition:
      'Failed deployments ÷ deployments that changed something (initial or forward). A deployment failed when a rollback returned past it, a later commit reverted one it delivered, or an incident named it as its cause; counted once.',
  },
  {
    id: 'recovery',
    title: 'Failed deployment recovery time',
    figure: (f) => duration(f.failedDeploymentRecoveryTime.medianSeconds),
    detail: (f, rows) => {
      const { recoveries, open } = f.failedDeploymentRecoveryTime
      return html`median of ${counted(recoveries, 'recovery', 'recoveries')}; ${open} not recovered (${rows.list(LIST_FILTERS.failed, counted(recoveries + open, 'failed deployment'))})`
    },
    value: (f) => f.failedDeploymentRecoveryTime.medianSeconds,
    kind: 'line',
    format: (v) => duration(v),
    durations: true,
    definition:
      'From a failed deployment to what recovered it: the rollback, the reverting deployment, or the resolution of the incident. Failures not recovered yet are counted apart.',
  },
  {
    id: 'rework',
    title: 'Deployment rework rate',
    figure: (f) => percent(f.deploymentReworkRate.ratio),
    detail: (f, rows) =>
      html`${rows.list(LIST_FILTERS.rework, `${f.deploymentReworkRate.rework} rework`)} of ${rows.list(LIST_FILTERS.deployments, counted(f.deploymentReworkRate.deployments, 'deployment'))}`,
    value: (f) => f.deploymentReworkRate.ratio,
    kind: 'line',
    format: (v) => percent(v),
    definition:
      'Rollbacks, and deployments that fixed a failure (a revert, or shiplog notify --fixes), ÷ all deployments.',
  },
]

// Daily buckets start a day apart; weekly ones a week.
const unitOf = (metrics: DoraMetrics): 'day' | 'week' => {
  const [first, second] = metrics.series
  return first && second && Date.parse(second.start) - Date.parse(first.start) === 86_400_000
    ? 'day'
    : 'week'
}

/** Links from a count to the list of what it counted. */
interface RowLinks {
  list: (filters: Record<string, string>, text: string) => Html
  commits: (text: string) => Html
}

function rowLinks(scope: CountedScope): RowLinks {
  return {
    list: (filters, text) => html`<a href="${deploymentList(scope, filters)}">${text}</a>`,
    commits: (text) => html`<a href="${commitList(scope)}">${text}</a>`,
  }
}

function keyPanel(
  key: Key,
  metrics: DoraMetrics,
  unit: 'day' | 'week',
  previous: DoraFigures | undefined,
  rows: RowLinks,
): Html {
  const points = metrics.series.map((bucket) => ({
    label: bucket.start.slice(0, 10),
    value: key.value(bucket),
  }))
  const axisTop = key.durations
    ? durationAxisTop(Math.max(0, ...points.map((point) => point.value ?? 0)))
    : undefined
  return html`<section class="key" aria-labelledby="key-${key.id}">
<h2 id="key-${key.id}">${key.title}</h2>
<p class="figure">${key.figure(metrics)}</p>
${previous ? html`<p class="previous">was ${key.figure(previous)} the period before</p>` : ''}
<p class="muted">${key.detail(metrics, rows)}</p>
${trendChart({
  id: `chart-${key.id}`,
  title: `${key.title} per ${unit}`,
  description: `${key.title}, ${unit} by ${unit}, from ${utc(metrics.since)} to ${utc(metrics.until)}.`,
  points,
  format: key.format,
  kind: key.kind,
  ...(axisTop === undefined ? {} : { yMax: axisTop }),
})}
<details class="definition"><summary>How it is computed</summary><p>${key.definition}</p></details>
</section>`
}

/** What the DORA page draws: the window asked for, its figures, and what they compare with. */
export interface DoraModel {
  /** Undefined when there is nothing to count: no environment at all. */
  metrics: DoraMetrics | undefined
  selection: DoraSelection
  /** Every environment in pipeline order, and the production ones. */
  environments: { names: string[]; production: string[] }
  comparison?: DoraComparisonView | undefined
}

/**
 * DORA's five keys for an environment (or every production one, when none is chosen) and a
 * window: each a figure and a trend, beside the period before; then each application.
 */
export function doraPage({ metrics, selection, environments, comparison }: DoraModel): PageContent {
  const counted = selection.environment ?? environments.production.join(', ')
  return {
    title: counted ? `DORA: ${counted}` : 'DORA',
    section: '/ui/dora',
    description:
      'DORA’s five keys of an environment: deployment frequency, lead time, fail rate, recovery and rework.',
    body: html`<h1>How we deliver${counted ? html` to ${bdi(counted)}` : ''}</h1>
<form class="filters" method="get" action="/ui/dora">
<label for="dora-environment">Environment<select id="dora-environment" name="environment">
${
  environments.production.length > 0
    ? html`<option value=""${selection.environment === undefined ? html` selected` : ''}>every production one (${environments.production.join(', ')})</option>`
    : ''
}
${environments.names.map(
  (name) =>
    html`<option dir="auto" value="${name}"${name.toLowerCase() === selection.environment?.toLowerCase() ? html` selected` : ''}>${name}</option>`,
)}
</select></label>
<label for="dora-range">Window<select id="dora-range" name="range">
${RANGES.map(
  (range) =>
    html`<option value="${range}"${range === selection.range ? html` selected` : ''}>${RANGE_LABELS[range]}</option>`,
)}
</select></label>
<label for="dora-app">Application<input id="dora-app" name="app" value="${selection.app ?? ''}"></label>
<label for="dora-repository">Repository<input id="dora-repository" name="repository" value="${selection.repository ?? ''}"></label>
<label for="dora-since">Or from (UTC)<input id="dora-since" name="since" value="${selection.since ?? ''}" placeholder="YYYY-MM-DD"></label>
<label for="dora-until">to<input id="dora-until" name="until" value="${selection.until ?? ''}" placeholder="YYYY-MM-DD"></label>
${selection.sort === 'frequency' ? '' : html`<input type="hidden" name="sort" value="${selection.sort}">`}
${selection.order === defaultOrder(selection.sort) ? '' : html`<input type="hidden" name="order" value="${selection.order}">`}
<button type="submit">Show</button>
</form>
${
  metrics
    ? html`<p class="muted">${bdi(metrics.environment)}, ${utc(metrics.since)} to ${utc(metrics.until)}${
        selection.app ? html`, application ${bdi(selection.app)}` : ''
      }${selection.repository ? html`, repository ${bdi(selection.repository)}` : ''}.${
        comparison
          ? html` Compared with the period before, ${utc(comparison.previous.since)} to ${utc(comparison.previous.until)}.`
          : ''
      }</p>
<div class="keys">${KEYS.map((key) => keyPanel(key, metrics, unitOf(metrics), comparison?.previous, rowLinks(countedScope(metrics, selection))))}</div>
<p><a href="${seriesCsv(countedScope(metrics, selection), unitOf(metrics))}" download>Download the ${unitOf(metrics) === 'day' ? 'daily' : 'weekly'} series as CSV</a></p>
${comparison ? applicationsTable(comparison.applications, selection) : ''}`
    : html`<p>No deployment recorded yet: the keys appear once an environment has one.</p>`
}`,
  }
}
