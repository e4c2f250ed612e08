// A Flux notification-controller event (a `generic` or `generic-hmac` Provider's body) as a
// Shiplog deployment:
// - a Kustomization's `ReconciliationSucceeded`, and a HelmRelease's `InstallSucceeded` or
//   `UpgradeSucceeded` (before helm-controller 0.37: `info` saying "Helm install/upgrade
//   succeeded"), record one; a reconciliation of a revision already recorded is a repeat, which
//   the receiver recognises by the object's uid and the revision;
// - the revision: `metadata.revision`, or the same key with its group (`kustomize.toolkit.fluxcd.io/
//   revision`, as notification-controller sent it before 1.5); `originRevision` where the
//   revision is an OCI artifact built from Git;
// - commit: the mapping's, else the SHA in the revision; a chart version names none: then the
//   deployment is recorded with its commit unknown, saying why;
// - version: the mapping's, else the SHA's first 12 characters, the artifact's tag, or the
//   chart's version;
// - environment: the mapping's (a Flux integration usually watches one cluster, one
//   environment), else the object's namespace;
// - app: the mapping's, else the object's name; repository: the mapping's;
// - time: `timestamp`.
// Progress, failures and source-controller events are ignored with their reason: a failed
// rollout leaves the running version as it was, and names no deployment Shiplog recorded, so it
// is no failure signal of one (docs/integrations.md).

import {
  type Delivery,
  type IntegrationMapping,
  isJsonObject,
  mappedValue,
  valueAt,
} from '../mapping.ts'
import type { DeliveryOutcome } from '../outcome.ts'
import { parseRevision } from './revision.ts'

const GROUPS = ['kustomize.toolkit.fluxcd.io', 'helm.toolkit.fluxcd.io', 'event.toolkit.fluxcd.io']

/** A metadata key as sent bare (notification-controller 1.5 and later) or with its group. */
export function metadataValue(delivery: Delivery, key: string): string | undefined {
  const metadata = isJsonObject(delivery.body) ? delivery.body.metadata : undefined
  if (!isJsonObject(metadata)) return undefined
  for (const name of [key, ...GROUPS.map((group) => `${group}/${key}`)]) {
    const value = metadata[name]
    if (typeof value === 'string' && value.trim()) return value.trim()
  }
  return undefined
}

/** Whether the event says a release reached the cluster, by its kind and reason. */
function finished(kind: string, reason: string, message: string): boolean {
  if (kind === 'Kustomization') return reason === 'ReconciliationSucceeded'
  if (kind === 'HelmRelease') {
    return (
      reason === 'InstallSucceeded' ||
      reason === 'UpgradeSucceeded' ||
      (reason === 'info' && /^Helm (install|upgrade) succeeded/i.test(message))
    )
  }
  return false
}

/** The event's kind and reason, as the deliveries list names it: `Kustomization ReconciliationSucceeded`. */
export function fluxEventName(body: unknown): string | undefined {
  const event: Delivery = { body, headers: new Headers() }
  const kind = valueAt(event, 'involvedObject.kind')
  const reason = valueAt(event, 'reason')
  return kind === undefined || reason === undefined ? undefined : `${kind} ${reason}`
}

/** The revision a finished event is about: what makes a repeat of it one. */
export function fluxRevision(delivery: Delivery): string | undefined {
  return metadataValue(delivery, 'revision')
}

/** What a Flux event means for Shiplog under an integration's mapping. */
export function outcomeOfFluxEvent(
  delivery: Delivery,
  mapping: IntegrationMapping,
): DeliveryOutcome {
  const at = (path: string) => valueAt(delivery, path)
  const kind = at('involvedObject.kind')
  const reason = at('reason')
  const name = at('involvedObject.name')
  if (kind === undefined || reason === undefined || name === undefined) {
    return {
      outcome: 'ignored',
      reason: 'not a Flux event: it lacks involvedObject.kind, involvedObject.name or reason',
    }
  }
  if (!finished(kind, reason, at('message') ?? '')) {
    const failed = at('severity') === 'error'
    return {
      outcome: 'ignored',
      reason: failed
        ? `${kind} ${reason}: a failed rollout leaves what runs as it was, and is not a deployment`
        : `${kind} ${reason} is not a finished release: Shiplog records a Kustomization's ReconciliationSucceeded and a HelmRelease's InstallSucceeded or UpgradeSucceeded`,
    }
  }
  const revisionText = fluxRevision(delivery)
  if (revisionText === undefined) {
    return { outcome: 'ignored', reason: `${kind} ${reason} without a revision in its metadata` }
  }
  const revision = parseRevision(revisionText)
  const origin = metadataValue(delivery, 'originRevision')
  const originCommit = origin === undefined ? undefined : parseRevision(origin)
  const sha =
    revision.kind === 'commit'
      ? revision.sha
      : originCommit?.kind === 'commit'
        ? originCommit.sha
        : undefined
  const repository = mappedValue(mapping.repository, delivery)
  if (repository === undefined) {
    return {
      outcome: 'ignored',
      reason:
        "no repository: a Flux event does not name one; set the integration's mapping.repository",
    }
  }
  const commit = mappedValue(mapping.commit, delivery) ?? sha
  return {
    outcome: 'record',
    senderDeploymentId: undefined,
    ...(commit === undefined && {
      commitUnknown: `revision '${revisionText}' names no commit (a chart version or an image digest is not one); the mapping's commit can give one`,
    }),
    deployment: {
      repositoryFullName: repository,
      environment:
        mappedValue(mapping.environment, delivery) ?? at('involvedObject.namespace') ?? null,
      app: mappedValue(mapping.app, delivery) ?? name,
      version:
        mappedValue(mapping.version, delivery) ??
        (revision.kind === 'commit'
          ? revision.sha.slice(0, 12)
          : [...revision.name].slice(0, 70).join('')),
      commitHash: commit ?? null,
      deployedAt: at('timestamp') ?? null,
      author: null,
      description: null,
    },
  }
}
