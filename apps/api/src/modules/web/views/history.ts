import type { AuditActor, AuditEvent } from '@shiplog/schema/audit'
import { utc } from './format.ts'
import { bdi, type Html, html } from './html.ts'

const DONE: Record<AuditEvent['action'], string> = {
  'deployment.voided': 'Voided',
  'incident.opened': 'Opened',
  'incident.changed': 'Changed',
  'key.created': 'Created',
  'key.revoked': 'Revoked',
  'integration.created': 'Created',
  'integration.changed': 'Changed',
  'integration.secret_rotated': 'Rotated the secret of',
  'integration.deleted': 'Deleted',
}

/** Who did it, as people read it: a person's name and email, a key's name and prefix, or the CLI. */
export function actorText(actor: AuditActor): string {
  if (actor.type === 'person') {
    return actor.name && actor.email
      ? `${actor.name} (${actor.email})`
      : (actor.name ?? actor.email ?? 'someone')
  }
  if (actor.type === 'key') return `key ${actor.name ?? ''} (${actor.keyPrefix ?? ''})`
  return 'the command line on the server'
}

// The fields of a change, as `name: value` pairs; lists joined.
const detailsText = (details: AuditEvent['details']) =>
  Object.entries(details)
    .filter(([, value]) => value !== null && value !== '')
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`)
    .join('; ')

/** The audit trail of one thing (a deployment, an incident): who changed what, newest first. */
export function historySection(events: readonly AuditEvent[]): Html {
  return html`<h2>History</h2>
${
  events.length === 0
    ? html`<p class="muted">No change recorded.</p>`
    : html`<ol class="history">${events.map(
        (event) =>
          html`<li>${DONE[event.action]} by <strong>${bdi(actorText(event.actor))}</strong>, ${utc(event.at)}${
            detailsText(event.details)
              ? html` <span class="muted">(${bdi(detailsText(event.details))})</span>`
              : ''
          }</li>`,
      )}</ol>`
}`
}
