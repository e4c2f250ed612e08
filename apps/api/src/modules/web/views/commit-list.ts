import { utc } from './format.ts'
import { type Html, html } from './html.ts'

/** A commit as the pages list it: its subject, author and link when the pipeline sent them. */
export interface ListedCommit {
  sha: string
  subject?: string | null
  author?: string | null
  committedAt: string
  url: string | null
  reverts?: string[]
}

/** Commits as a table, newest first: SHA (linked to the code host), subject, author, time. */
export function commitList(
  commits: readonly ListedCommit[],
  options: { reverts?: boolean } = {},
): Html {
  return html`<div class="table-scroll"><table>
<thead><tr><th scope="col">Commit</th><th scope="col">Subject</th><th scope="col">Author</th><th scope="col">Committed (UTC)</th>${options.reverts ? html`<th scope="col">Reverts</th>` : ''}</tr></thead>
<tbody>${commits.map(
    (commit) => html`<tr>
<td>${commit.url ? html`<a href="${commit.url}"><code>${commit.sha.slice(0, 12)}</code></a>` : html`<code>${commit.sha.slice(0, 12)}</code>`}</td>
<td>${commit.subject ?? html`<span class="muted">—</span>`}</td>
<td>${commit.author ?? html`<span class="muted">—</span>`}</td>
<td>${utc(commit.committedAt)}</td>
${options.reverts ? html`<td>${(commit.reverts ?? []).map((sha) => html`<code>${sha.slice(0, 12)}</code> `)}</td>` : ''}
</tr>`,
  )}</tbody></table></div>`
}
