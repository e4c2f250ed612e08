// A PagerDuty webhook (v3) about an incident as a Shiplog incident:
// - `incident.triggered` opens it, `incident.resolved` resolves it, `incident.reopened` opens it
//   again, each at the event's `occurred_at`; the latest by that time wins, so a resolve that
//   arrives before its trigger ends the same as in order. `incident.acknowledged` and the other
//   events change nothing;
// - the incident is `event.data.id`; it began at `event.data.created_at`;
// - environment: the mapping's (a path into the body such as `event.data.service.summary`, or a
//   fixed value: PagerDuty has no environments); app: the mapping's, else the service's name
//   (`event.data.service.summary`);
// - title: `event.data.title`; link: `event.data.html_url`.

import {
  boundedKey,
  type IncidentOutcome,
  incidentPlace,
  incidentTitle,
  instantOf,
} from '../incident.ts'
import { type Delivery, type IntegrationMapping, valueAt } from '../mapping.ts'
import { type DeliveryOutcome, lacking } from '../outcome.ts'

export const PAGERDUTY_DEFAULTS = { environment: [], app: ['event.data.service.summary'] }

const STATES: Record<string, 'open' | 'resolved'> = {
  'incident.triggered': 'open',
  'incident.reopened': 'open',
  'incident.resolved': 'resolved',
}

/** The event type of a PagerDuty v3 webhook body, for the deliveries list. */
export const pagerDutyEventType = (body: unknown): string | undefined =>
  valueAt({ body, headers: new Headers() }, 'event.event_type')

/** What a PagerDuty v3 webhook means for Shiplog under the integration's mapping. */
export function outcomeOfPagerDuty(
  delivery: Delivery,
  mapping: IntegrationMapping,
): IncidentOutcome | DeliveryOutcome {
  const at = (path: string) => valueAt(delivery, path)
  const type = at('event.event_type')
  if (type === undefined) return lacking('PagerDuty webhook (v3)', ['event.event_type'])
  const state = STATES[type]
  if (state === undefined) {
    return {
      outcome: 'ignored',
      reason: `${type} changes no incident: Shiplog reads incident.triggered, incident.resolved and incident.reopened`,
    }
  }
  const id = at('event.data.id')
  const occurredAt = instantOf(at('event.occurred_at'))
  if (id === undefined || occurredAt === undefined) {
    return lacking('PagerDuty incident event', ['event.data.id', 'a valid event.occurred_at'])
  }
  const place = incidentPlace(delivery, mapping, PAGERDUTY_DEFAULTS)
  if ('reason' in place) {
    return {
      outcome: 'ignored',
      reason:
        'no environment: PagerDuty has none; set the integration\'s mapping.environment, a fixed value ("production") or a path such as event.data.service.summary',
    }
  }
  return {
    outcome: 'incident',
    subject: {
      senderKey: boundedKey(id),
      ...place,
      title: incidentTitle(at('event.data.title'), `PagerDuty incident ${id}`),
      url: at('event.data.html_url') ?? null,
    },
    startedAt: instantOf(at('event.data.created_at')) ?? occurredAt,
    state,
    at: occurredAt,
  }
}
