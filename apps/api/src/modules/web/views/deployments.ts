import type { DeploymentPage, DeploymentStatus } from '@shiplog/schema'
import { shortCommit } from './commit-cell.ts'
import { utc } from './format.ts'
import { bdi, html } from './html.ts'
import type { PageContent } from './layout.ts'
import { listUrl, pager, textFilters, unpaged, yesNoFilter } from './list-filters.ts'

/** The list's filters as the page's URL carries them (every one shareable). */
export interface TimelineFilters {
  app?: string
  environment?: string
  repository?: string
  version?: string
  commitHash?: string
  since?: string
  until?: string
  changeType?: 'initial' | 'redeploy' | 'rollback' | 'forward' | 'change'
  failed?: 'true' | 'false'
  rework?: 'true' | 'false'
  status?: 'recorded' | 'queued' | 'failed'
  limit?: string
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

const CHANGE_TYPES = [
  ['initial', 'initial'],
  ['redeploy', 'redeploy'],
  ['rollback', 'rollback'],
  ['forward', 'forward'],
  ['change', 'a change (initial or forward)'],
] as const

// The DORA figures' own filters: failed as the change fail rate counts it, rework as its rate.
const FLAGS = [
  ['failed', 'Failed', 'failed', 'did not fail'],
  ['rework', 'Rework', 'rework', 'not rework'],
] as const

/** What a row says about a deployment's place and fate: change type, failure, status. */
export function marks(deployment: DeploymentStatus) {
  return html`${deployment.status !== 'recorded' ? html`<span class="badge ${deployment.status}">${deployment.status}</span> ` : ''}${
    deployment.changeType
      ? html`<span class="badge ${deployment.changeType}">${deployment.changeType}</span> `
      : ''
  }${deployment.changeFailure ? html`<span class="badge failed">failed</span>` : ''}`
}

/** What the timeline draws: a page of deployments, and the filters as typed. */
export interface DeploymentsModel {
  list: DeploymentPage
  filters: TimelineFilters
}

/** The timeline: newest first, every filter of the list API, a page at a time. */
export function deploymentsPage({ list: page, filters }: DeploymentsModel): PageContent {
  const { exported } = unpaged(filters)
  return {
    title: 'Deployments',
    section: '/ui/deployments',
    description:
      'Every deployment, newest first, with its change type and fate; filter and export.',
    body: html`<h1>Deployments</h1>
<form class="filters" method="get" action="/ui/deployments">
${textFilters('filter', FIELDS, filters)}
<label for="filter-changeType">Change<select id="filter-changeType" name="changeType">
<option value="">any</option>
${CHANGE_TYPES.map(
  ([type, label]) =>
    html`<option value="${type}"${filters.changeType === type ? html` selected` : ''}>${label}</option>`,
)}
</select></label>
${FLAGS.map(([name, label, yes, no]) =>
  yesNoFilter('filter', { name, label, value: filters[name] }, ['any', yes, no]),
)}
<label for="filter-status">Status<select id="filter-status" name="status">
${(['recorded', 'queued', 'failed'] as const).map(
  (status) =>
    html`<option value="${status}"${(filters.status ?? 'recorded') === status ? html` selected` : ''}>${status}</option>`,
)}
</select></label>
<button type="submit">Filter</button>
<a href="/ui/deployments">Clear the filters</a>
</form>
<p><a href="${listUrl('/ui/deployments.csv', exported)}" download>Download every matching deployment as CSV</a></p>
${
  page.data.length === 0
    ? html`<p>No deployment matches these filters.</p>`
    : html`<div class="table-scroll"><table>
<thead><tr><th scope="col">Deployed (UTC)</th><th scope="col">Application</th><th scope="col">Environment</th><th scope="col">Version</th><th scope="col">Commit</th><th scope="col">Change</th><th scope="col">By</th><th scope="col">Source</th></tr></thead>
<tbody>${page.data.map(
        (deployment) => html`<tr>
<td><a href="/ui/deployments/${deployment.id}">${utc(deployment.deployedAt)}</a></td>
<td>${bdi(deployment.app)}<br><span class="muted">${bdi(deployment.repositoryFullName)}</span></td>
<td>${bdi(deployment.environment)}</td>
<td>${bdi(deployment.version)}</td>
<td>${shortCommit(deployment.commitHash)}</td>
<td>${marks(deployment)}</td>
<td>${deployment.author === null ? html`<span class="muted">—</span>` : bdi(deployment.author)}</td>
<td>${deployment.source}</td>
</tr>`,
      )}</tbody></table></div>`
}
${pager('/ui/deployments', filters, page.nextCursor)}`,
  }
}
