import type { ApiKeySummary } from '@shiplog/db/queries/api-keys'
import { SCOPES } from '@shiplog/schema'
import { utc } from './format.ts'
import { bdi, html, isolate } from './html.ts'
import type { PageContent, Viewer } from './layout.ts'

const when = (date: Date | null) => (date ? utc(date.toISOString()) : '—')

/** What the keys page draws: the workspace's keys, and one just created (shown this once). */
export interface KeysModel extends Viewer {
  keys: readonly ApiKeySummary[]
  created?: { name: string; key: string }
  notice?: string
}

/** The workspace's API keys (admins): create one (shown once) and revoke them, as the CLI does. */
export function keysPage(model: KeysModel): PageContent {
  const { keys } = model
  const csrf = html`<input type="hidden" name="csrf" value="${model.csrfToken}">`
  return {
    title: 'API keys',
    section: '/ui/keys',
    body: html`<h1>API keys of ${bdi(model.principal.workspaceSlug)}</h1>
${model.notice ? html`<p class="notice" role="status">${model.notice}</p>` : ''}
${
  model.created
    ? html`<div class="notice" role="status"><p>Key <strong>${bdi(model.created.name)}</strong> created. Copy it now: only its hash is kept, so it cannot be shown again.</p>
<p><code id="new-key">${model.created.key}</code></p></div>`
    : ''
}
<div class="table-scroll"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scopes</th><th scope="col">Created (UTC)</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
<tbody>${keys.map(
      (key) => html`<tr>
<td>${bdi(key.name)}</td><td><code>${key.prefix}</code></td><td>${key.scopes.join(', ')}</td>
<td>${when(key.createdAt)}</td><td>${when(key.lastUsedAt)}</td>
<td>${
        key.revokedAt
          ? html`revoked ${when(key.revokedAt)}`
          : html`<form method="post" action="/ui/keys/${key.id}/revoke" data-confirm="Revoke key ${isolate(key.name)}? Pipelines using it are refused within seconds.">${csrf}<button class="danger" type="submit" aria-label="Revoke ${key.name}">Revoke</button></form>`
      }</td></tr>`,
    )}</tbody></table></div>
<h2>Create a key</h2>
<form class="stack" method="post" action="/ui/keys">
${csrf}
<label for="key-name">Name<input id="key-name" name="name" maxlength="255" required></label>
<fieldset><legend>Scopes</legend>
${SCOPES.map(
  (scope) =>
    html`<label><span><input type="checkbox" name="scope" value="${scope}"${scope === 'deployments:write' || scope === 'read' ? html` checked` : ''}> <code>${scope}</code></span></label>`,
)}
</fieldset>
<button type="submit">Create key</button>
</form>`,
  }
}
