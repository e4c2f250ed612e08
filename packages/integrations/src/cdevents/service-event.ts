// A CDEvent (v0.3 to v0.5, and later versions of the same events) as a Shiplog deployment:
// - `service.deployed`, `service.upgraded` and `service.rolledback` record one. A rollback is a
//   deployment like any other: DORA sees it go back to an earlier commit (docs/dora.md);
// - environment: the mapping's, else `subject.content.environment.id`, else its `source`;
// - app: the mapping's, else the name in the artifact's package URL
//   (`pkg:oci/checkout@sha256:…` is `checkout`), else `subject.id`;
// - version: the mapping's, else the purl's `tag` qualifier, else its version, an image digest
//   shortened to `sha256:` and 12 hex digits (a digest is not a version a person reads);
// - commit: the mapping's, else `customData.commit` (an image digest is never a commit); none
//   found, the deployment is recorded with its commit unknown, saying why;
// - repository: the mapping's, else `customData.repository`;
// - time: `context.timestamp`.
// The mapping's paths read the CDEvent itself (a structured CloudEvent's `data`), or a header.
// Incidents are read by incident-event.ts; `service.removed` and every other subject are ignored,
// with the reason.

import type { IncidentOutcome } from '../incident.ts'
import { type Delivery, type IntegrationMapping, mappedValue, valueAt } from '../mapping.ts'
import type { DeliveryOutcome } from '../outcome.ts'
import { parseCDEventType, receivedCDEvent } from './cloud-event.ts'
import { outcomeOfIncidentCDEvent } from './incident-event.ts'
import { parsePackageUrl, readableVersion } from './purl.ts'

const VERSION_MAX_LENGTH = 70
const RECORDED = ['deployed', 'upgraded', 'rolledback']

/** What a CDEvent delivery means for Shiplog under an integration's mapping. */
export function outcomeOfCDEvent(
  delivery: Delivery,
  mapping: IntegrationMapping,
): DeliveryOutcome | IncidentOutcome {
  const received = receivedCDEvent(delivery)
  if ('reason' in received) return { outcome: 'ignored', reason: received.reason }
  const kind = parseCDEventType(received.type)
  if (kind === undefined) {
    return {
      outcome: 'ignored',
      reason: `'${received.type}' is not a CDEvent type (dev.cdevents.<subject>.<predicate>.<version>)`,
    }
  }
  const { subject, predicate } = kind
  if (subject === 'incident') {
    return outcomeOfIncidentCDEvent(
      { body: received.cdevent, headers: delivery.headers },
      predicate,
      mapping,
    )
  }
  if (subject !== 'service' || !RECORDED.includes(predicate)) {
    return {
      outcome: 'ignored',
      reason: `${subject}.${predicate} is not a deployment: Shiplog records service.deployed, service.upgraded and service.rolledback`,
    }
  }
  // The mapping and the defaults read the CDEvent, whichever way it came.
  const event: Delivery = { body: received.cdevent, headers: delivery.headers }
  const at = (path: string) => valueAt(event, path)
  const artifact = at('subject.content.artifactId')
  const purl = artifact === undefined ? undefined : parsePackageUrl(artifact)
  const repository = mappedValue(mapping.repository, event) ?? at('customData.repository')
  if (repository === undefined) {
    return {
      outcome: 'ignored',
      reason:
        "no repository: a CDEvent does not name one; set the integration's mapping.repository (or send customData.repository)",
    }
  }
  const commit = mappedValue(mapping.commit, event) ?? at('customData.commit')
  return {
    outcome: 'record',
    senderDeploymentId: undefined,
    ...(commit === undefined && {
      commitUnknown:
        "the CDEvent has no customData.commit and the mapping gives none (an image digest is not a commit); send the deployed commit's SHA as customData.commit",
    }),
    deployment: {
      repositoryFullName: repository,
      environment:
        mappedValue(mapping.environment, event) ??
        at('subject.content.environment.id') ??
        at('subject.content.environment.source') ??
        null,
      app: mappedValue(mapping.app, event) ?? purl?.name ?? at('subject.id') ?? null,
      version:
        mappedValue(mapping.version, event) ??
        (purl === undefined ? undefined : readableVersion(purl, VERSION_MAX_LENGTH)) ??
        null,
      commitHash: commit ?? null,
      deployedAt: at('context.timestamp') ?? null,
      author: null,
      description: null,
    },
  }
}
