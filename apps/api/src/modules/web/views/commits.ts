import type { FirstDeliveryPage } from '@shiplog/schema'
import { duration, utc } from './format.ts'
import { bdi, html } from './html.ts'
import type { PageContent } from './layout.ts'
import { listUrl, pager, textFilters, unpaged, yesNoFilter } from './list-filters.ts'

/** The commit list's filters as the page's URL carries them. */
export interface CommitFilters {
  environment?: string
  production?: 'true' | 'false'
  app?: string
  repository?: string
  since?: string
  until?: string
  limit?: string
  cursor?: string
}

const FIELDS = [
  ['environment', 'Environment'],
  ['app', 'Application'],
  ['repository', 'Repository'],
  ['since', 'Since (UTC)'],
  ['until', 'Until (UTC)'],
] as const

/** What the commits page draws: a page of first deliveries, and the filters as typed. */
export interface CommitsModel {
  list: FirstDeliveryPage
  filters: CommitFilters
}

/**
 * The commits change lead time counted: each where its application first delivered it to the
 * environment, with its lead time, newest deployment first, a page at a time.
 */
export function commitsPage({ list: page, filters }: CommitsModel): PageContent {
  const { exported } = unpaged(filters)
  return {
    title: 'Commits delivered',
    section: '/ui/dora',
    description:
      'The commits change lead time counted, each with its lead time; filter and export.',
    body: html`<h1>Commits delivered</h1>
<p class="muted">Each commit where its application first delivered it to an environment (not by the application’s first deployment there): what change lead time counts.</p>
<form class="filters" method="get" action="/ui/commits">
${textFilters('commits', FIELDS, filters)}
${yesNoFilter('commits', { name: 'production', label: 'Production', value: filters.production }, ['any environment', 'production ones', 'the others'])}
<button type="submit">Filter</button>
<a href="/ui/commits">Clear the filters</a>
</form>
<p><a href="${listUrl('/ui/commits.csv', exported)}" download>Download every matching commit as CSV</a></p>
${
  page.data.length === 0
    ? html`<p>No commit matches these filters.</p>`
    : html`<div class="table-scroll"><table class="commits">
<thead><tr><th scope="col">Commit</th><th scope="col">Subject</th><th scope="col">Application</th><th scope="col">Delivered (UTC)</th><th scope="col" class="num">Lead time</th></tr></thead>
<tbody>${page.data.map(
        (commit) => html`<tr>
<td>${commit.url ? html`<a href="${commit.url}"><code>${commit.sha.slice(0, 12)}</code></a>` : html`<code>${commit.sha.slice(0, 12)}</code>`}</td>
<td>${commit.subject === null ? html`<span class="muted">—</span>` : bdi(commit.subject)}${commit.author === null ? '' : html`<br><span class="muted">${bdi(commit.author)}</span>`}</td>
<td>${bdi(commit.app)}<br><span class="muted">${bdi(commit.environment)}</span></td>
<td><a href="/ui/deployments/${commit.deploymentId}">${utc(commit.deployedAt)}</a></td>
<td class="num">${duration(commit.leadTimeSeconds)}</td>
</tr>`,
      )}</tbody></table></div>`
}
${pager('/ui/commits', filters, page.nextCursor)}`,
  }
}
