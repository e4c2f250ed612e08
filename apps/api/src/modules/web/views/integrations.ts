import { SOURCES } from '@shiplog/integrations/interpret'
import { INTEGRATION_SOURCES, type Integration } from '@shiplog/schema/integration'
import { errorSummary, type FormState, fieldError, textField } from './form-fields.ts'
import { utc } from './format.ts'
import { bdi, html } from './html.ts'
import type { PageContent, Viewer } from './layout.ts'

/** What the integrations page draws: the workspace's integrations, and the form that adds one. */
export interface IntegrationsModel extends Viewer {
  integrations: readonly Integration[]
  notice?: string
  /** The create form: empty, or refused as typed with its errors. */
  form: FormState
}

/**
 * The errors about the mapping, beside its box: the check names them by key (`mapping.app`), and
 * the box holds them all.
 */
function mappingState(state: FormState): FormState {
  const errors = state.errors
    .filter((error) => error.field === 'mapping' || error.field.startsWith('mapping.'))
    .map((error) => ({
      field: 'mapping',
      message:
        error.field === 'mapping' ? error.message : `${error.field.slice(8)} ${error.message}`,
    }))
  return { ...state, errors }
}

const MAPPING_EXAMPLE = '{"app": {"from": "deployment.payload.service"}}'

/** The form that connects a sender: its source, a name, perhaps a mapping (JSON). */
function createForm(state: FormState, csrfToken: string) {
  const source = fieldError(state, 'integration-source', 'source')
  const mapping = fieldError(mappingState(state), 'integration-mapping', 'mapping')
  const chosen = state.values.source ?? 'github'
  return html`${errorSummary(state, 'The integration was not created')}
<form class="stack" method="post" action="/ui/integrations">
<input type="hidden" name="csrf" value="${csrfToken}">
<label for="integration-source">Source<select id="integration-source" name="source" required${source.attributes}>
${INTEGRATION_SOURCES.map((each) => html`<option value="${each}"${each === chosen ? html` selected` : ''}>${SOURCES[each].label}</option>`)}
</select>${source.message}</label>
${textField(state, { id: 'integration-name', name: 'name', label: 'Name', extra: html` maxlength="100" required` })}
${textField(state, { id: 'integration-sender-secret', name: 'secret', label: 'PagerDuty’s signing secret (PagerDuty only: it makes its own)', extra: html` type="password" autocomplete="off" maxlength="200"` })}
<label for="integration-mapping">Mapping (optional, JSON)<textarea id="integration-mapping" name="mapping" rows="4" spellcheck="false" placeholder="${MAPPING_EXAMPLE}"${mapping.attributes}>${state.values.mapping ?? ''}</textarea>${mapping.message}</label>
<button type="submit">Create integration</button>
</form>`
}

/** `/ui/integrations` (admins): the senders connected to the workspace, and a form to add one. */
export function integrationsPage(model: IntegrationsModel): PageContent {
  return {
    title: 'Integrations',
    section: '/ui/integrations',
    description:
      'The webhooks of Git hosts, GitOps controllers and alerting tools that report deployments, pushes and incidents by themselves.',
    body: html`<h1>Integrations of ${bdi(model.principal.workspaceSlug)}</h1>
${model.notice ? html`<p class="notice" role="status">${model.notice}</p>` : ''}
<p>A Git host’s or GitOps controller’s webhook that reports deployments and pushes to Shiplog by itself, without a step in the pipeline, or an alerting tool’s that opens and resolves incidents.</p>
${
  model.integrations.length === 0
    ? html`<p class="muted">No integration yet: create one below, then paste its URL and secret into the webhook.</p>`
    : html`<div class="table-scroll"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Source</th><th scope="col">URL</th><th scope="col">Created (UTC)</th></tr></thead>
<tbody>${model.integrations.map(
        (integration) => html`<tr>
<td><a href="/ui/integrations/${integration.id}">${bdi(integration.name)}</a></td>
<td>${SOURCES[integration.source].label}</td>
<td><code>${integration.url}</code></td>
<td>${utc(integration.createdAt)}</td>
</tr>`,
      )}</tbody></table></div>`
}
<h2>Create an integration</h2>
${createForm(model.form, model.csrfToken)}
<p class="muted">The mapping says where the fields a delivery lacks come from, for example <code>{"app": "web"}</code> or <code>{"environment": {"from": "deployment.payload.stage"}}</code>; a field left out follows the source’s default.</p>`,
  }
}
