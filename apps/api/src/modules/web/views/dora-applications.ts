import type { DoraFigures } from '@shiplog/schema'
import {
  type DoraSelection,
  type DoraSort,
  defaultOrder,
  doraUrl,
  SORTS,
} from './dora-selection.ts'
import { counted, duration, percent } from './format.ts'
import { bdi, type Html, html } from './html.ts'

/** One application's five keys over the window. */
export interface ApplicationFigures {
  app: string
  repository: string
  figures: DoraFigures
}

// The first rows by the chosen sort; the rest one link away (a workspace may have thousands).
const SHOWN = 20

const HEADINGS: Record<DoraSort, string> = {
  app: 'Application',
  frequency: 'Deployments',
  'lead-time': 'Lead time (median)',
  'fail-rate': 'Change fail rate',
  recovery: 'Recovery (median)',
  rework: 'Rework rate',
}

const SORT_NAMES: Record<DoraSort, string> = {
  app: 'application name',
  frequency: 'deployments',
  'lead-time': 'lead time',
  'fail-rate': 'change fail rate',
  recovery: 'recovery time',
  rework: 'rework rate',
}

/** The value a figure sorts by; null (no data) sorts last either way. */
function sortValue(sort: Exclude<DoraSort, 'app'>, f: DoraFigures): number | null {
  switch (sort) {
    case 'frequency':
      return f.deploymentFrequency.deployments
    case 'lead-time':
      return f.changeLeadTime.medianSeconds
    case 'fail-rate':
      return f.changeFailRate.ratio
    case 'recovery':
      return f.failedDeploymentRecoveryTime.medianSeconds
    case 'rework':
      return f.deploymentReworkRate.ratio
  }
}

/** The applications in the order asked: by name, or by a figure with those without data last. */
export function sortApplications(
  rows: ApplicationFigures[],
  sort: DoraSort,
  order: 'asc' | 'desc',
): ApplicationFigures[] {
  const sign = order === 'asc' ? 1 : -1
  const byName = (a: ApplicationFigures, b: ApplicationFigures) =>
    a.app.localeCompare(b.app) || a.repository.localeCompare(b.repository)
  if (sort === 'app') return [...rows].sort((a, b) => sign * byName(a, b))
  return [...rows].sort((a, b) => {
    const x = sortValue(sort, a.figures)
    const y = sortValue(sort, b.figures)
    if (x === null || y === null) return x === y ? byName(a, b) : x === null ? 1 : -1
    return sign * (x - y) || byName(a, b)
  })
}

function header(sort: DoraSort, selection: DoraSelection): Html {
  const current = selection.sort === sort
  const next = current ? (selection.order === 'asc' ? 'desc' : 'asc') : defaultOrder(sort)
  const ariaSort = current ? (selection.order === 'asc' ? 'ascending' : 'descending') : 'none'
  const arrow = current ? (selection.order === 'asc' ? ' ▲' : ' ▼') : ''
  return html`<th scope="col" aria-sort="${ariaSort}"${sort === 'app' ? '' : html` class="num"`}><a href="${doraUrl(selection, { sort, order: next })}">${HEADINGS[sort]}${arrow}<span class="visually-hidden">, sort by ${SORT_NAMES[sort]}${next === 'asc' ? ' ascending' : ' descending'}</span></a></th>`
}

function row(entry: ApplicationFigures, selection: DoraSelection): Html {
  const f = entry.figures
  return html`<tr>
<th scope="row"><a href="${doraUrl(selection, { app: entry.app, allApplications: false })}">${bdi(entry.app)}</a><br><span class="muted">${bdi(entry.repository)}</span></th>
<td class="num">${f.deploymentFrequency.deployments}<br><span class="muted">${f.deploymentFrequency.perDay.toFixed(2)} / day</span></td>
<td class="num">${duration(f.changeLeadTime.medianSeconds)}<br><span class="muted">${counted(f.changeLeadTime.commits, 'commit')}</span></td>
<td class="num">${percent(f.changeFailRate.ratio)}<br><span class="muted">${f.changeFailRate.failed} of ${f.changeFailRate.deployments}</span></td>
<td class="num">${duration(f.failedDeploymentRecoveryTime.medianSeconds)}<br><span class="muted">${f.failedDeploymentRecoveryTime.open} open</span></td>
<td class="num">${percent(f.deploymentReworkRate.ratio)}<br><span class="muted">${f.deploymentReworkRate.rework} of ${f.deploymentReworkRate.deployments}</span></td>
</tr>`
}

/** Applications × the five keys over the window, sorted by links (no script needed). */
export function applicationsTable(rows: ApplicationFigures[], selection: DoraSelection): Html {
  const sorted = sortApplications(rows, selection.sort, selection.order)
  const shown = selection.allApplications ? sorted : sorted.slice(0, SHOWN)
  const direction = selection.order === 'asc' ? 'lowest first' : 'highest first'
  return html`<section aria-labelledby="applications">
<h2 id="applications">By application</h2>
${
  rows.length === 0
    ? html`<p>No application deployed in this window.</p>`
    : html`<p class="muted">${counted(rows.length, 'application')} deployed in the window, by ${SORT_NAMES[selection.sort]}${selection.sort === 'app' ? (selection.order === 'asc' ? ', A to Z' : ', Z to A') : `, ${direction}`}.${
        shown.length < sorted.length
          ? html` <a href="${doraUrl(selection, { allApplications: true })}">Show all ${sorted.length}</a>`
          : ''
      }</p>
<div class="table-scroll"><table class="applications">
<thead><tr>${SORTS.map((sort) => header(sort, selection))}</tr></thead>
<tbody>${shown.map((entry) => row(entry, selection))}</tbody></table></div>`
}
</section>`
}
