import type { IncidentPage } from '@shiplog/schema'
import type { FormState } from './form-fields.ts'
import { utc } from './format.ts'
import { bdi, html } from './html.ts'
import { resolveForm } from './incident.ts'
import { incidentForm } from './incident-form.ts'
import type { PageContent, Viewer } from './layout.ts'

/** What the incidents page draws: a page of them, and the form that opens one. */
export interface IncidentsModel extends Viewer {
  list: IncidentPage
  mayWrite: boolean
  environments: string[]
  status?: 'open' | 'resolved'
  notice?: string
  /** The form that opens one, prefilled (start: now). */
  form: FormState
}

/** Incidents, newest first: open one, resolve one (with the incidents scope). */
export function incidentsPage(options: IncidentsModel): PageContent {
  const page = options.list
  const filter = (status?: string) => (status ? `/ui/incidents?status=${status}` : '/ui/incidents')
  return {
    title: 'Incidents',
    section: '/ui/incidents',
    body: html`<h1>Incidents</h1>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
<nav class="pager" aria-label="Incident status">
<a href="${filter()}"${options.status ? '' : html` aria-current="page"`}>All</a>
<a href="${filter('open')}"${options.status === 'open' ? html` aria-current="page"` : ''}>Open</a>
<a href="${filter('resolved')}"${options.status === 'resolved' ? html` aria-current="page"` : ''}>Resolved</a>
</nav>
${
  page.data.length === 0
    ? html`<p>No incident${options.status ? html` ${options.status}` : ''}.</p>`
    : html`<div class="table-scroll"><table>
<thead><tr><th scope="col">Started (UTC)</th><th scope="col">Title</th><th scope="col">Where</th><th scope="col">Status</th><th scope="col">Cause</th>${options.mayWrite ? html`<th scope="col">Resolve</th>` : ''}</tr></thead>
<tbody>${page.data.map(
        (incident) => html`<tr id="${incident.id}">
<td>${utc(incident.startedAt)}</td>
<td><a href="/ui/incidents/${incident.id}">${bdi(incident.title)}</a></td>
<td>${bdi(incident.environment)}${incident.app ? html` · ${bdi(incident.app)}` : ''}</td>
<td><span class="badge ${incident.status}">${incident.status}</span>${incident.resolvedAt ? html`<br><span class="muted">${utc(incident.resolvedAt)}</span>` : ''}</td>
<td>${incident.causeDeploymentId ? html`<a href="/ui/deployments/${incident.causeDeploymentId}">deployment</a>` : html`<span class="muted">—</span>`}</td>
${
  options.mayWrite
    ? html`<td>${incident.status === 'open' ? resolveForm(incident, options.csrfToken) : ''}</td>`
    : ''
}
</tr>`,
      )}</tbody></table></div>`
}
${page.nextCursor ? html`<p class="pager"><a rel="next" href="/ui/incidents?${new URLSearchParams({ ...(options.status ? { status: options.status } : {}), cursor: page.nextCursor }).toString()}">Older</a></p>` : ''}
${
  options.mayWrite
    ? html`<h2>Open an incident</h2>
${incidentForm(options.form, { ...options, id: 'incident' })}`
    : html`<p class="muted">Opening and resolving incidents needs the operator or admin role (or a key with the <code>incidents:write</code> scope).</p>`
}`,
  }
}
