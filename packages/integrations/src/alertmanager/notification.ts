// An Alertmanager webhook notification (`version: "4"`) as an alert group's snapshot: one
// incident per group (its `groupKey`), its alerts by fingerprint and start, firing or resolved.
// - environment and application: the mapping's, else the group's labels `environment` or `env`,
//   and `app`, `service` or `job`. A mapping path `labels.<name>` reads the labels every alert of
//   the group shares (`commonLabels`, with `groupLabels`), `annotations.<name>` the shared
//   annotations;
// - title: the shared `summary` annotation after the `alertname`; link: the first alert's
//   `generatorURL`, else `externalURL`;
// - a notification whose `status` is `resolved` resolves the whole group at the latest `endsAt`
//   of its alerts, also those `truncatedAlerts` left out of the list.

import {
  boundedKey,
  fnv64,
  type GroupAlert,
  type IncidentOutcome,
  incidentPlace,
  incidentTitle,
  instantOf,
} from '../incident.ts'
import { type Delivery, type IntegrationMapping, isJsonObject } from '../mapping.ts'
import { type DeliveryOutcome, lacking } from '../outcome.ts'

export const ALERTMANAGER_DEFAULTS = {
  environment: ['labels.environment', 'labels.env'],
  app: ['labels.app', 'labels.service', 'labels.job'],
}

const labelsOf = (value: unknown): Record<string, string> =>
  isJsonObject(value)
    ? Object.fromEntries(
        Object.entries(value).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      )
    : {}

// An alert without a fingerprint (older than Alertmanager 0.19) is known by its labels, as
// Alertmanager itself fingerprints them: here FNV-1a (64 bits) of the sorted labels.
function fingerprintOf(alert: Record<string, unknown>): string {
  if (typeof alert.fingerprint === 'string' && alert.fingerprint)
    return boundedKey(alert.fingerprint)
  const labels = Object.entries(labelsOf(alert.labels)).sort(([a], [b]) => (a < b ? -1 : 1))
  return `labels:${fnv64(JSON.stringify(labels))}`
}

/** What the notification says of its group; ignored, with the reason, when it cannot say it. */
export function outcomeOfAlertmanager(
  delivery: Delivery,
  mapping: IntegrationMapping,
): IncidentOutcome | DeliveryOutcome {
  const body = delivery.body as Record<string, unknown>
  const groupKey = body.groupKey
  if (typeof groupKey !== 'string' || !groupKey || !Array.isArray(body.alerts)) {
    return lacking('Alertmanager webhook', ['groupKey', 'alerts'])
  }
  const labels = { ...labelsOf(body.groupLabels), ...labelsOf(body.commonLabels) }
  const annotations = labelsOf(body.commonAnnotations)
  const view: Delivery = { body: { ...body, labels, annotations }, headers: delivery.headers }
  const place = incidentPlace(view, mapping, ALERTMANAGER_DEFAULTS)
  if ('reason' in place) return { outcome: 'ignored', reason: place.reason }
  const alerts: GroupAlert[] = []
  for (const alert of body.alerts) {
    if (!isJsonObject(alert)) continue
    const startsAt = instantOf(alert.startsAt)
    if (startsAt === undefined) continue
    const resolved = alert.status === 'resolved'
    const endsAt = resolved ? (instantOf(alert.endsAt) ?? null) : null
    // A resolved alert ends no earlier than it started.
    alerts.push({
      fingerprint: fingerprintOf(alert),
      startsAt,
      endsAt: endsAt !== null && endsAt < startsAt ? startsAt : endsAt,
    })
  }
  if (alerts.length === 0) {
    return { outcome: 'ignored', reason: 'the notification lists no alert with a valid startsAt' }
  }
  const ends = alerts.map((alert) => alert.endsAt).filter((end): end is string => end !== null)
  const groupResolvedAt =
    body.status === 'resolved' && ends.length > 0 ? (ends.sort().at(-1) as string) : null
  const firstAlert = body.alerts.find(isJsonObject)
  const generatorUrl = typeof firstAlert?.generatorURL === 'string' ? firstAlert.generatorURL : ''
  const externalUrl = typeof body.externalURL === 'string' ? body.externalURL : ''
  const name = labels.alertname
  const summary = annotations.summary ?? annotations.description
  return {
    outcome: 'alert-group',
    subject: {
      senderKey: boundedKey(groupKey),
      ...place,
      title: incidentTitle(
        name && summary ? `${name}: ${summary}` : (summary ?? name),
        `Alertmanager group ${groupKey}`,
      ),
      url: generatorUrl || externalUrl || null,
    },
    alerts,
    groupResolvedAt,
  }
}
