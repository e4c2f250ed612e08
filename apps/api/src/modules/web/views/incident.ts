import { SOURCES } from '@shiplog/integrations/interpret'
import type { Incident } from '@shiplog/schema'
import type { AuditEvent } from '@shiplog/schema/audit'
import type { IntegrationSource } from '@shiplog/schema/integration'
import { utc } from './format.ts'
import { historySection } from './history.ts'
import { bdi, html, isolate } from './html.ts'
import type { PageContent, Viewer } from './layout.ts'

/** The form that resolves an open incident now (for the operator and admin roles). */
export const resolveForm = (incident: Incident, csrfToken: string) =>
  html`<form method="post" action="/ui/incidents/${incident.id}/resolve"><input type="hidden" name="csrf" value="${csrfToken}"><button class="secondary" type="submit" aria-label="Resolve ${incident.title}">Resolve</button></form>`

/** What an incident's page draws: the incident, its history, and whether it may be resolved. */
export interface IncidentModel extends Viewer {
  incident: Incident
  history: readonly AuditEvent[]
  mayWrite: boolean
}

/**
 * Who reported it: a person, or an alerting tool with a link to its own page of it. Only an
 * http(s) address becomes a link: the sender wrote it, and a `javascript:` one must stay text.
 */
function reporter(incident: Incident) {
  if (incident.source === null) return html`a person`
  const label = SOURCES[incident.source as IntegrationSource]?.label ?? incident.source
  const url = incident.senderUrl
  return url !== null && /^https?:\/\//i.test(url)
    ? html`${label} (<a href="${url}" rel="noopener noreferrer">its page</a>)`
    : html`${label}`
}

/** One incident: what, where, its cause and fix, and who opened and changed it. */
export function incidentPage(model: IncidentModel): PageContent {
  const { incident, history } = model
  const link = (id: string | null, text: string) =>
    id ? html`<a href="/ui/deployments/${id}">${text}</a>` : html`<span class="muted">—</span>`
  return {
    title: isolate(incident.title),
    section: '/ui/incidents',
    body: html`<h1>${bdi(incident.title)}</h1>
<dl class="facts">
<dt>Status</dt><dd><span class="badge ${incident.status}">${incident.status}</span></dd>
<dt>Where</dt><dd>${bdi(incident.environment)}${incident.app ? html` · ${bdi(incident.app)}` : ''}</dd>
<dt>Started</dt><dd>${utc(incident.startedAt)}</dd>
<dt>Resolved</dt><dd>${incident.resolvedAt ? utc(incident.resolvedAt) : '—'}</dd>
<dt>Cause</dt><dd>${link(incident.causeDeploymentId, 'the deployment that caused it')}</dd>
<dt>Fixed by</dt><dd>${link(incident.fixedByDeploymentId, 'the deployment that fixed it')}</dd>
<dt>Reported by</dt><dd>${reporter(incident)}</dd>
</dl>
${model.mayWrite && incident.status === 'open' ? resolveForm(incident, model.csrfToken) : ''}
${historySection(history)}
<p><a href="/ui/incidents">All incidents</a></p>`,
  }
}
