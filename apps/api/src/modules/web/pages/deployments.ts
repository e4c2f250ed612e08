import type { DeploymentPage, DeploymentStatus } from '@shiplog/schema'
import { utc } from '../format.ts'
import { html } from '../html.ts'
import type { PageContent } from '../layout.ts'

/** The list's filters as the page's URL carries them (every one shareable). */
export interface TimelineFilters {
  app?: string
  environment?: string
  repository?: string
  version?: string
  commitHash?: string
  since?: string
  until?: string
  status?: 'recorded' | 'queued' | 'failed'
  cursor?: string
}

const FIELDS = [
  ['app', 'Application'],
  ['environment', 'Environment'],
  ['repository', 'Repository'],
  ['version', 'Version'],
  ['commitHash', 'Commit'],
  ['since', 'Since (UTC)'],
  ['until', 'Until (UTC)'],
] as const

/** The URL of the timeline with these filters. */
export function timelineUrl(filters: TimelineFilters): string {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value)
  const text = query.toString()
  return text ? `/ui/deployments?${text}` : '/ui/deployments'
}

/** What a row says about a deployment's place and fate: change type, failure, status. */
export function marks(deployment: DeploymentStatus) {
  return html`${deployment.status !== 'recorded' ? html`<span class="badge ${deployment.status}">${deployment.status}</span> ` : ''}${
    deployment.changeType
      ? html`<span class="badge ${deployment.changeType}">${deployment.changeType}</span> `
      : ''
  }${deployment.changeFailure ? html`<span class="badge failed">failed</span>` : ''}`
}

/** The timeline: newest first, every filter of the list API, a page at a time. */
export function deploymentsPage(page: DeploymentPage, filters: TimelineFilters): PageContent {
  const { cursor: _, ...withoutCursor } = filters
  return {
    title: 'Deployments',
    section: '/ui/deployments',
    body: html`<h1>Deployments</h1>
<form class="filters" method="get" action="/ui/deployments">
${FIELDS.map(
  ([name, label]) =>
    html`<label for="filter-${name}">${label}<input id="filter-${name}" name="${name}" value="${filters[name] ?? ''}"${
      name === 'since' || name === 'until' ? html` placeholder="2026-05-04T00:00:00Z"` : ''
    }></label>`,
)}
<label for="filter-status">Status<select id="filter-status" name="status">
${(['recorded', 'queued', 'failed'] as const).map(
  (status) =>
    html`<option value="${status}"${(filters.status ?? 'recorded') === status ? html` selected` : ''}>${status}</option>`,
)}
</select></label>
<button type="submit">Filter</button>
<a href="/ui/deployments">Clear</a>
</form>
${
  page.data.length === 0
    ? html`<p>No deployment matches these filters.</p>`
    : html`<div class="table-scroll"><table>
<thead><tr><th scope="col">Deployed (UTC)</th><th scope="col">Application</th><th scope="col">Environment</th><th scope="col">Version</th><th scope="col">Commit</th><th scope="col">Change</th><th scope="col">By</th></tr></thead>
<tbody>${page.data.map(
        (deployment) => html`<tr>
<td><a href="/ui/deployments/${deployment.id}">${utc(deployment.deployedAt)}</a></td>
<td>${deployment.app}<br><span class="muted">${deployment.repositoryFullName}</span></td>
<td>${deployment.environment}</td>
<td>${deployment.version}</td>
<td><code>${deployment.commitHash.slice(0, 12)}</code></td>
<td>${marks(deployment)}</td>
<td>${deployment.author ?? html`<span class="muted">—</span>`}</td>
</tr>`,
      )}</tbody></table></div>`
}
<nav class="pager" aria-label="Pages">
${filters.cursor ? html`<a href="${timelineUrl(withoutCursor)}">Newest</a>` : ''}
${page.nextCursor ? html`<a href="${timelineUrl({ ...withoutCursor, cursor: page.nextCursor })}" rel="next">Older</a>` : ''}
</nav>`,
  }
}
