// What a delivery means, by its source and event: the one place that routes a sender's events
// to the readers above. The worker calls it; nothing here touches the database.

import { outcomeOfAlertmanager } from './alertmanager/notification.ts'
import { outcomeOfCDEvent } from './cdevents/service-event.ts'
import { outcomeOfFluxEvent } from './flux/event.ts'
import { outcomeOfDeploymentStatus } from './github/deployment-status.ts'
import { outcomeOfGitHubPush } from './github/push.ts'
import { outcomeOfDeploymentHook } from './gitlab/deployment-hook.ts'
import { outcomeOfPushHook } from './gitlab/push-hook.ts'
import type { IncidentOutcome } from './incident.ts'
import { type Delivery, type IntegrationMapping, isJsonObject } from './mapping.ts'
import { outcomeOfOpsgenie } from './opsgenie/webhook.ts'
import type { DeliveryOutcome } from './outcome.ts'
import { outcomeOfPagerDuty } from './pagerduty/webhook.ts'
import type { PushOutcome } from './push.ts'

export type { IntegrationSource } from '@shiplog/schema/integration'

import type { IntegrationSource } from '@shiplog/schema/integration'

/** Every source Shiplog takes deliveries from, with the events it reads of each. */
export const SOURCES: Record<IntegrationSource, { label: string; events: readonly string[] }> = {
  github: { label: 'GitHub', events: ['deployment_status', 'push'] },
  gitlab: { label: 'GitLab', events: ['Deployment Hook', 'Push Hook'] },
  cdevents: {
    label: 'CDEvents',
    events: [
      'service.deployed',
      'service.upgraded',
      'service.rolledback',
      'incident.detected',
      'incident.reported',
      'incident.resolved',
    ],
  },
  argocd: { label: 'Argo CD', events: ['on-deployed (a CDEvent service.deployed)'] },
  flux: {
    label: 'Flux',
    events: [
      'Kustomization ReconciliationSucceeded',
      'HelmRelease InstallSucceeded',
      'HelmRelease UpgradeSucceeded',
    ],
  },
  alertmanager: { label: 'Alertmanager', events: ['firing', 'resolved'] },
  pagerduty: {
    label: 'PagerDuty',
    events: ['incident.triggered', 'incident.resolved', 'incident.reopened'],
  },
  opsgenie: { label: 'Opsgenie', events: ['Create', 'Close'] },
}

export type Interpretation = DeliveryOutcome | PushOutcome | IncidentOutcome

/** What one delivery means for Shiplog, under its integration's mapping. */
export function interpret(
  source: IntegrationSource,
  event: string,
  delivery: Delivery,
  mapping: IntegrationMapping,
): Interpretation {
  if (!isJsonObject(delivery.body)) {
    return { outcome: 'ignored', reason: 'the body is not a JSON object' }
  }
  // Argo CD's notifications post the CDEvent its template (infra/argocd) writes.
  if (source === 'cdevents' || source === 'argocd') return outcomeOfCDEvent(delivery, mapping)
  if (source === 'flux') return outcomeOfFluxEvent(delivery, mapping)
  if (source === 'alertmanager') return outcomeOfAlertmanager(delivery, mapping)
  if (source === 'pagerduty') return outcomeOfPagerDuty(delivery, mapping)
  if (source === 'opsgenie') return outcomeOfOpsgenie(delivery, mapping)
  if (source === 'github') {
    if (event === 'deployment_status') return outcomeOfDeploymentStatus(delivery, mapping)
    if (event === 'push') return outcomeOfGitHubPush(delivery, mapping)
    if (event === 'ping') return { outcome: 'ignored', reason: PING }
    if (event === 'deployment') {
      return {
        outcome: 'ignored',
        reason:
          "a deployment was created, not finished: Shiplog records it when its deployment_status says 'success'",
      }
    }
  } else {
    if (event === 'Deployment Hook') return outcomeOfDeploymentHook(delivery, mapping)
    if (event === 'Push Hook') return outcomeOfPushHook(delivery, mapping)
    if (event === 'Tag Push Hook') {
      return {
        outcome: 'ignored',
        reason: "a tag push: only pushes to the default branch carry a deployment's commits",
      }
    }
  }
  const { label, events } = SOURCES[source]
  return {
    outcome: 'ignored',
    reason: `${label} event '${event}' is not one Shiplog reads: send only ${events.join(' and ')} events`,
  }
}

/** What a ping is: the sender checking the hook. */
export const PING = 'a ping: the hook reaches Shiplog and its secret matches; nothing to record'
