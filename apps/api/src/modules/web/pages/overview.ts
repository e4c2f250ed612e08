import type { DeploymentMatrix } from '@shiplog/schema'
import { age, utc } from '../format.ts'
import { html } from '../html.ts'
import type { PageContent } from '../layout.ts'

/** What runs where: applications × environments, each cell its latest deployment. */
export function overviewPage(
  matrix: DeploymentMatrix,
  options: { repository?: string; repositories: string[]; authors: Map<string, string>; now: Date },
): PageContent {
  // Newest first: the applications deployed most recently anywhere lead.
  const latestOf = (row: DeploymentMatrix['rows'][number]) =>
    row.cells.reduce(
      (latest, cell) => (cell && cell.deployedAt > latest ? cell.deployedAt : latest),
      '',
    )
  const rows = [...matrix.rows].sort((a, b) => latestOf(b).localeCompare(latestOf(a)))
  return {
    title: 'Overview',
    section: '/ui',
    body: html`<h1>What runs where</h1>
<form class="filters" method="get" action="/ui">
<label for="repository">Repository
<select id="repository" name="repository" data-autosubmit>
<option value="">All repositories</option>
${options.repositories.map(
  (name) =>
    html`<option value="${name}"${name === options.repository ? html` selected` : ''}>${name}</option>`,
)}
</select></label>
<button type="submit">Filter</button>
</form>
${
  rows.length === 0
    ? html`<p>No deployment recorded${options.repository ? html` for ${options.repository}` : ''} yet.</p>`
    : html`<div class="table-scroll"><table>
<caption class="muted">${rows.length} applications, newest deployment first</caption>
<thead><tr><th scope="col">Application</th>${matrix.environments.map((environment) => html`<th scope="col">${environment}</th>`)}</tr></thead>
<tbody>${rows.map(
        (row) =>
          html`<tr><th scope="row">${row.app}<br><span class="muted">${row.repositoryFullName}</span></th>${row.cells.map(
            (cell) =>
              cell
                ? html`<td><a href="/ui/deployments/${cell.id}">${cell.version}</a><br><span class="muted" title="${utc(cell.deployedAt)}">${age(cell.deployedAt, options.now)}${
                    options.authors.has(cell.id) ? html` · ${options.authors.get(cell.id)}` : ''
                  }</span></td>`
                : html`<td class="muted">—</td>`,
          )}</tr>`,
      )}</tbody>
</table></div>`
}`,
  }
}
