import { firstDeploymentSteps } from './first-visit.ts'
import { age, counted, utc } from './format.ts'
import { bdi, type Html, html } from './html.ts'
import type { PageContent } from './layout.ts'
import type { OverviewColumn, OverviewRow, Waiting } from './overview-rows.ts'

const compareUrl = (row: OverviewRow, waiting: Waiting) =>
  `/ui/compare?${new URLSearchParams({ app: row.app, repository: row.repositoryFullName, from: waiting.from, to: waiting.to })}`

function waitingLine(row: OverviewRow): Html | string {
  const { waiting } = row
  if (!waiting) return ''
  const count =
    waiting.commits === undefined
      ? 'compare'
      : waiting.commits === 0
        ? // Nothing listed but lists missing: "at least 0" would read as a count.
          waiting.complete
          ? 'nothing waiting'
          : 'compare (not every deployment sent its commits)'
        : `${waiting.complete ? '' : 'at least '}${counted(waiting.commits, 'commit')} waiting`
  return html`<br><a class="waiting" href="${compareUrl(row, waiting)}">${waiting.from} → ${waiting.to}: ${count}</a>`
}

const badges = (marks: readonly string[]) =>
  marks.length === 0
    ? ''
    : html`<span class="marks">${marks.map((mark) => html`<span class="badge ${mark.replace(' ', '-')}">${mark}</span> `)}</span>`

/** What the overview draws: what runs where, newest first, and what waits for production. */
export interface OverviewModel {
  columns: OverviewColumn[]
  rows: OverviewRow[]
  repository?: string
  repositories: string[]
  /** Who triggered each cell's deployment, by its id. */
  authors: Map<string, string>
  now: Date
  /** This server's address, for the first visit's instructions. */
  baseUrl: string
  workspace: string
}

/** What runs where: applications × environments in pipeline order, each cell its latest deployment. */
export function overviewPage(options: OverviewModel): PageContent {
  const { columns, rows } = options
  const empty = rows.length === 0
  return {
    title: 'Overview',
    section: '/ui',
    description: 'What runs where: every application in every environment, in pipeline order.',
    body: html`<h1>What runs where</h1>
${
  empty && !options.repository
    ? firstDeploymentSteps(options.baseUrl, options.workspace)
    : html`<form class="filters" method="get" action="/ui">
<label for="repository">Repository
<select id="repository" name="repository">
<option value="">All repositories</option>
${options.repositories.map(
  (name) =>
    html`<option dir="auto" value="${name}"${name === options.repository ? html` selected` : ''}>${name}</option>`,
)}
</select></label>
<button type="submit">Filter</button>
</form>
${
  empty
    ? html`<p>No deployment recorded${options.repository ? html` for ${bdi(options.repository)}` : ''} yet.</p>`
    : html`<div class="table-scroll"><table>
<caption class="muted">${counted(rows.length, 'application')}, newest deployment first; environments in pipeline order</caption>
<thead><tr><th scope="col">Application</th>${columns.map(
        (column) =>
          html`<th scope="col">${bdi(column.name)} ${badges([
            ...(column.production ? ['production'] : []),
            ...(column.openIncident ? ['open incident'] : []),
          ])}</th>`,
      )}</tr></thead>
<tbody>${rows.map(
        (row) =>
          html`<tr><th scope="row">${bdi(row.app)}<br><span class="muted">${bdi(row.repositoryFullName)}</span>${waitingLine(row)}</th>${row.cells.map(
            (cell) =>
              cell
                ? html`<td><a href="/ui/deployments/${cell.id}">${bdi(cell.version)}</a><br><span class="muted" title="${utc(cell.deployedAt)}">${age(cell.deployedAt, options.now)}${
                    options.authors.has(cell.id)
                      ? html` · ${bdi(options.authors.get(cell.id) ?? '')}`
                      : ''
                  }</span> ${badges(cell.marks)}</td>`
                : html`<td class="muted">—</td>`,
          )}</tr>`,
      )}</tbody>
</table></div>`
}`
}`,
  }
}
