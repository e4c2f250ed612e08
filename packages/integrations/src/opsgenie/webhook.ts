// An Opsgenie outgoing webhook (Jira Service Management's alerting sends the same shape) as a
// Shiplog incident:
// - `Create` opens it at `alert.createdAt`, `Close` resolves it at `alert.updatedAt`; the latest
//   by that time wins. `Acknowledge`, `AddNote` and the other actions change nothing;
// - the incident is `alert.alertId`;
// - environment: the mapping's, else `alert.details.environment` or `alert.details.env`; app:
//   the mapping's, else `alert.details.app`, `alert.details.service` or `alert.entity`;
// - title: `alert.message`.
// The reader knows the body only: another tool's alert body is a new reader beside this one.

import {
  boundedKey,
  type IncidentOutcome,
  incidentPlace,
  incidentTitle,
  instantOf,
} from '../incident.ts'
import { type Delivery, type IntegrationMapping, isJsonObject, valueAt } from '../mapping.ts'
import { type DeliveryOutcome, lacking } from '../outcome.ts'

export const OPSGENIE_DEFAULTS = {
  environment: ['alert.details.environment', 'alert.details.env'],
  app: ['alert.details.app', 'alert.details.service', 'alert.entity'],
}

const STATES: Record<string, 'open' | 'resolved'> = { Create: 'open', Close: 'resolved' }

/**
 * An Opsgenie time: milliseconds since the epoch (`createdAt`), or nanoseconds (`updatedAt` as
 * some versions send it), or RFC 3339.
 */
function opsgenieTime(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    // 1e14 ms is the year 5138: a larger number counts nanoseconds.
    return instantOf(value > 1e14 ? value / 1e6 : value)
  }
  return instantOf(value)
}

/** What an Opsgenie webhook means for Shiplog under the integration's mapping. */
export function outcomeOfOpsgenie(
  delivery: Delivery,
  mapping: IntegrationMapping,
): IncidentOutcome | DeliveryOutcome {
  const body = delivery.body as Record<string, unknown>
  const action = typeof body.action === 'string' ? body.action : undefined
  const alert = isJsonObject(body.alert) ? body.alert : undefined
  if (action === undefined || alert === undefined) {
    return lacking('Opsgenie webhook', ['action', 'alert'])
  }
  const state = STATES[action]
  if (state === undefined) {
    return {
      outcome: 'ignored',
      reason: `the action ${action} changes no incident: Shiplog reads Create and Close`,
    }
  }
  const id = valueAt(delivery, 'alert.alertId')
  const createdAt = opsgenieTime(alert.createdAt)
  const changedAt = state === 'open' ? createdAt : (opsgenieTime(alert.updatedAt) ?? createdAt)
  if (id === undefined || createdAt === undefined || changedAt === undefined) {
    return lacking('Opsgenie alert', ['alert.alertId', 'a valid alert.createdAt'])
  }
  const place = incidentPlace(delivery, mapping, OPSGENIE_DEFAULTS)
  if ('reason' in place) return { outcome: 'ignored', reason: place.reason }
  return {
    outcome: 'incident',
    subject: {
      senderKey: boundedKey(id),
      ...place,
      title: incidentTitle(valueAt(delivery, 'alert.message'), `Opsgenie alert ${id}`),
      url: null,
    },
    startedAt: createdAt,
    state,
    at: changedAt,
  }
}
