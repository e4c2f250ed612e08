// A CDEvent about an incident (`incident.detected`, `incident.reported`, `incident.resolved`, v0.3
// to v0.5 and later versions of the same events) as a Shiplog incident:
// - the incident is `subject.id` within `subject.source` (or the event's `context.source`);
// - detected and reported open it, resolved resolves it, at `context.timestamp`; the latest by
//   that time wins, whatever order they arrive in;
// - environment: the mapping's, else `subject.content.environment.id`, else its `source`;
// - app: the mapping's, else `subject.content.service.id`, else the name in
//   `subject.content.artifactId` (a package URL);
// - title: `subject.content.description`; link: `subject.content.ticketURI`.

import { boundedKey, type IncidentOutcome, incidentTitle, instantOf } from '../incident.ts'
import { type Delivery, type IntegrationMapping, mappedValue, valueAt } from '../mapping.ts'
import type { DeliveryOutcome } from '../outcome.ts'
import { parsePackageUrl } from './purl.ts'

const OPENING = ['detected', 'reported']

/** What a CDEvent of the incident subject means, `event` being the CDEvent itself. */
export function outcomeOfIncidentCDEvent(
  event: Delivery,
  predicate: string,
  mapping: IntegrationMapping,
): IncidentOutcome | DeliveryOutcome {
  if (!OPENING.includes(predicate) && predicate !== 'resolved') {
    return {
      outcome: 'ignored',
      reason: `incident.${predicate} is not one Shiplog reads: incident.detected, incident.reported and incident.resolved are`,
    }
  }
  const at = (path: string) => valueAt(event, path)
  const id = at('subject.id')
  const time = instantOf(at('context.timestamp'))
  if (id === undefined || time === undefined) {
    return {
      outcome: 'ignored',
      reason: 'not a CDEvent incident: it lacks subject.id or a valid context.timestamp',
    }
  }
  const environment =
    mappedValue(mapping.environment, event) ??
    at('subject.content.environment.id') ??
    at('subject.content.environment.source')
  if (environment === undefined) {
    return {
      outcome: 'ignored',
      reason:
        "no environment: the incident has no subject.content.environment and the integration's mapping gives none",
    }
  }
  const artifact = at('subject.content.artifactId')
  const app =
    mappedValue(mapping.app, event) ??
    at('subject.content.service.id') ??
    (artifact === undefined ? undefined : parsePackageUrl(artifact)?.name) ??
    null
  const source = at('subject.source') ?? at('context.source') ?? ''
  return {
    outcome: 'incident',
    subject: {
      senderKey: boundedKey(`${source} ${id}`),
      environment,
      app,
      title: incidentTitle(at('subject.content.description'), `Incident ${id}`),
      url: at('subject.content.ticketURI') ?? null,
    },
    // A CDEvent says when it happened, not when the incident began: its first event's time.
    startedAt: time,
    state: predicate === 'resolved' ? 'resolved' : 'open',
    at: time,
  }
}
