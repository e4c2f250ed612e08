import type { IntegrationWithSecret } from '@shiplog/schema/integration'
import { HOOK_FORMS } from '../../integrations/hook-form.ts'
import { utc } from './format.ts'
import { bdi, html, isolate } from './html.ts'
import type { PageContent } from './layout.ts'

/**
 * An integration just created, or its secret just rotated: what to fill in on the sender's
 * webhook form, the secret shown in this answer only (Shiplog keeps no copy it could show again).
 */
export function integrationSecretPage(
  integration: IntegrationWithSecret,
  done: 'created' | 'rotated',
): PageContent {
  const form = HOOK_FORMS[integration.source]
  return {
    title: `${isolate(integration.name)}: ${done === 'created' ? 'created' : 'secret rotated'}`,
    section: '/ui/integrations',
    body: html`<h1>${bdi(integration.name)} <span class="muted">${done === 'created' ? 'created' : 'has a new secret'}</span></h1>
<div class="notice" role="status"><p>Copy the secret now: it is not shown again.</p>
${
  done === 'rotated' && integration.previousSecretValidUntil
    ? html`<p>The previous secret keeps working until ${utc(integration.previousSecretValidUntil)}: switch the webhook to this one before then.</p>`
    : ''
}</div>
<p>Add a webhook in ${form.where}, or edit the one there, with:</p>
<dl class="facts">
<dt>URL</dt><dd><code id="integration-url">${integration.url}</code></dd>
<dt>Content type</dt><dd>${form.contentType ? html`<code>${form.contentType}</code>` : html`<span class="muted">nothing to choose: it sends JSON</span>`}</dd>
<dt>${form.secret}</dt><dd><code id="integration-secret">${integration.secret}</code></dd>
<dt>${form.trigger}</dt><dd><ul class="plain">${integration.events.map(
      (event) =>
        html`<li>${form.boxes[event] ?? event} <span class="muted">(<code>${event}</code>)</span></li>`,
    )}</ul></dd>
</dl>
<p><a href="/ui/integrations/${integration.id}">Its settings and deliveries</a> · <a href="/ui/integrations">Back to the integrations</a></p>`,
  }
}
