import { SOURCES } from '@shiplog/integrations/interpret'
import {
  type Integration,
  type IntegrationDelivery,
  SENDER_MADE_SECRETS,
} from '@shiplog/schema/integration'
import { errorSummary, type FormState, fieldError } from './form-fields.ts'
import { counted, utc } from './format.ts'
import { bdi, type Html, html, isolate } from './html.ts'
import type { PageContent, Viewer } from './layout.ts'

/** What an integration's page draws: its settings, its latest deliveries, and its forms. */
export interface IntegrationModel extends Viewer {
  integration: Integration
  deliveries: readonly IntegrationDelivery[]
  /** The delete form: fresh, or refused (not confirmed) with its error. */
  deleteForm: FormState
}

// A delivery names the deployment it produced by its receipt in the API; the page links its page.
const DEPLOYMENT_RECEIPT = /^\/v1\/deployments\/([0-9a-f-]{36})$/

/** What became of a delivery besides its outcome: why, or what it produced. */
function details(delivery: IntegrationDelivery): Html {
  const deploymentId = delivery.deployment && DEPLOYMENT_RECEIPT.exec(delivery.deployment)?.[1]
  const parts = [
    delivery.reason ? bdi(delivery.reason) : '',
    deploymentId ? html`<a href="/ui/deployments/${deploymentId}">the deployment</a>` : '',
    delivery.commits === null ? '' : counted(delivery.commits, 'commit'),
    delivery.duplicateOf ? html`repeats <code>${delivery.duplicateOf}</code>` : '',
  ].filter((part) => part !== '')
  return parts.length === 0
    ? html`<span class="muted">—</span>`
    : html`${parts.map((part, index) => html`${index > 0 ? '; ' : ''}${part}`)}`
}

function deliveriesSection(deliveries: readonly IntegrationDelivery[]): Html {
  if (deliveries.length === 0) {
    return html`<p class="muted">No delivery yet: the sender’s test delivery (GitHub’s ping) shows here once it arrives.</p>`
  }
  return html`<div class="table-scroll"><table>
<thead><tr><th scope="col">Received (UTC)</th><th scope="col">Event</th><th scope="col">Sender’s delivery id</th><th scope="col">Outcome</th><th scope="col">Reason or result</th></tr></thead>
<tbody>${deliveries.map(
    (delivery) => html`<tr>
<td>${utc(delivery.receivedAt)}</td>
<td><code>${delivery.event}</code></td>
<td>${delivery.senderDeliveryId === null ? html`<span class="muted">—</span>` : html`<code>${delivery.senderDeliveryId}</code>`}</td>
<td><span class="badge ${delivery.outcome}">${delivery.outcome}</span></td>
<td>${details(delivery)}</td>
</tr>`,
  )}</tbody></table></div>`
}

/** Each Shiplog field and what it is taken from, in the order tried. */
function mappingTable(integration: Integration): Html {
  return html`<div class="table-scroll"><table>
<thead><tr><th scope="col">Field</th><th scope="col">Taken from, in order (a quoted value is fixed)</th></tr></thead>
<tbody>${Object.entries(integration.mappingInEffect).map(
    ([field, sources]) =>
      html`<tr><th scope="row"><code>${field}</code></th><td>${sources.map((each, index) => html`${index > 0 ? ', then ' : ''}<code>${each}</code>`)}</td></tr>`,
  )}</tbody></table></div>`
}

/** Rotating the secret (the new one shown once) and deleting the integration (confirmed). */
function forms(model: IntegrationModel): Html {
  const { integration } = model
  const csrf = html`<input type="hidden" name="csrf" value="${model.csrfToken}">`
  const confirm = fieldError(model.deleteForm, 'confirm', 'confirm')
  const rotation = SENDER_MADE_SECRETS.includes(integration.source)
    ? html`<h2>The secret</h2>
<p>${SOURCES[integration.source].label} made this secret, not Shiplog: to change it, create a new integration with the new webhook’s secret, then delete this one.</p>`
    : html`<h2>Rotate the secret</h2>
<p>A new secret, shown once; the current one keeps working for a while, so the webhook can be switched without a lost delivery.</p>
<form method="post" action="/ui/integrations/${integration.id}/secret" data-confirm="Rotate the secret of ${isolate(integration.name)}? Switch the webhook to the new one before the current one stops working.">${csrf}<button class="secondary" type="submit">Rotate secret</button></form>`
  return html`${rotation}
<h2>Delete this integration</h2>
<p>Its URL answers 404 from then on and its deliveries list is gone; the deployments it recorded stay. It cannot be undone.</p>
${errorSummary(model.deleteForm, 'Not deleted')}
<form class="stack" method="post" action="/ui/integrations/${integration.id}/delete" data-confirm="Delete the integration ${isolate(integration.name)}? Its webhook is refused from then on.">
${csrf}
<label for="confirm"><span><input type="checkbox" id="confirm" name="confirm" value="yes" required${confirm.attributes}> I understand its webhook is refused from then on</span>${confirm.message}</label>
<button class="danger" type="submit">Delete integration</button>
</form>`
}

/** `/ui/integrations/{id}` (admins): where the sender posts, what it maps, what it delivered. */
export function integrationPage(model: IntegrationModel): PageContent {
  const { integration } = model
  return {
    title: isolate(integration.name),
    section: '/ui/integrations',
    description: `The ${SOURCES[integration.source].label} integration ${isolate(integration.name)}: its settings and its latest deliveries.`,
    body: html`<h1>${bdi(integration.name)} <span class="muted">${SOURCES[integration.source].label}</span></h1>
<dl class="facts">
<dt>URL</dt><dd><code>${integration.url}</code></dd>
<dt>Events</dt><dd>${integration.events.map((event, index) => html`${index > 0 ? ', ' : ''}<code>${event}</code>`)}</dd>
<dt>Created</dt><dd>${utc(integration.createdAt)}</dd>
<dt>Secret</dt><dd>${
      integration.previousSecretValidUntil
        ? html`rotated; the previous one is accepted until ${utc(integration.previousSecretValidUntil)}`
        : html`<span class="muted">shown once, when it was made</span>`
    }</dd>
</dl>
<h2>Mapping in effect</h2>
${mappingTable(integration)}
<h2>Deliveries</h2>
<p class="muted">The latest, newest first.</p>
${deliveriesSection(model.deliveries)}
${forms(model)}
<p><a href="/ui/integrations">Back to the integrations</a></p>`,
  }
}
