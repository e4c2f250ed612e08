// What each Shiplog field is taken from, in order, for a source under a mapping: what the
// integration's answers show as `mappingInEffect`, so nobody has to read the docs to know why a
// deployment got its app. It mirrors the readers (github/deployment-status.ts,
// gitlab/deployment-hook.ts), whose order it states.

import type { IntegrationMapping, MappingValue } from '@shiplog/schema/integration'
import { ALERTMANAGER_DEFAULTS } from './alertmanager/notification.ts'
import type { IntegrationSource } from './interpret.ts'
import { OPSGENIE_DEFAULTS } from './opsgenie/webhook.ts'
import { PAGERDUTY_DEFAULTS } from './pagerduty/webhook.ts'

type Field = keyof IntegrationMapping

type Defaults = Record<Field, { before?: string[]; after: string[] }>

const GITHUB: Defaults = {
  app: { before: ['deployment.payload.app'], after: ['repository.name'] },
  environment: { after: ['deployment_status.environment', 'deployment.environment'] },
  repository: { after: ['repository.full_name'] },
  version: {
    after: [
      'deployment.payload.version',
      'deployment.ref (when it is not the SHA)',
      'deployment.sha (its first 12 characters)',
    ],
  },
  commit: { after: ['deployment.sha'] },
}

const GITLAB: Defaults = {
  app: { after: ['the project’s name in project.path_with_namespace'] },
  environment: { after: ['environment'] },
  repository: { after: ['project.path_with_namespace'] },
  version: { after: ['the commit SHA (its first 12 characters)'] },
  commit: { after: ['the SHA at the end of commit_url', 'short_sha'] },
}

// Argo CD posts the CDEvent of Shiplog's template, so both read the same paths (of the CDEvent:
// a structured CloudEvent's `data`).
const CDEVENTS: Defaults = {
  app: { after: ['the name in subject.content.artifactId (a package URL)', 'subject.id'] },
  environment: { after: ['subject.content.environment.id', 'subject.content.environment.source'] },
  repository: { after: ['customData.repository'] },
  version: {
    after: [
      'the tag qualifier of subject.content.artifactId',
      'the version of subject.content.artifactId (a digest: its first 12 hex digits)',
    ],
  },
  commit: { after: ['customData.commit'] },
}

const FLUX: Defaults = {
  app: { after: ['involvedObject.name'] },
  environment: { after: ['involvedObject.namespace'] },
  repository: { after: [] },
  version: {
    after: [
      'the revision in metadata (revision or <group>/revision): its SHA’s first 12 characters, or a chart version',
    ],
  },
  commit: { after: ['the SHA in the revision (main@sha1:<sha> or main/<sha>)'] },
}

// The alerting tools: an incident has an environment and perhaps an application, nothing else.
const incidentDefaults = (place: { environment: string[]; app: string[] }): Defaults => ({
  environment: { after: place.environment },
  app: { after: place.app },
  repository: { after: [] },
  version: { after: [] },
  commit: { after: [] },
})

const DEFAULTS: Record<IntegrationSource, Defaults> = {
  github: GITHUB,
  gitlab: GITLAB,
  cdevents: CDEVENTS,
  argocd: CDEVENTS,
  flux: FLUX,
  alertmanager: incidentDefaults(ALERTMANAGER_DEFAULTS),
  pagerduty: incidentDefaults(PAGERDUTY_DEFAULTS),
  opsgenie: incidentDefaults(OPSGENIE_DEFAULTS),
}

const described = (value: MappingValue | undefined): string[] =>
  value === undefined
    ? []
    : (Array.isArray(value) ? value : [value]).map((each) =>
        typeof each === 'string' ? JSON.stringify(each) : each.from,
      )

/** Each field's sources, in the order they are tried. */
export function mappingInEffect(
  source: IntegrationSource,
  mapping: IntegrationMapping,
): Record<Field, string[]> {
  const defaults = DEFAULTS[source]
  const fields: Field[] = ['app', 'environment', 'repository', 'version', 'commit']
  return Object.fromEntries(
    fields.map((field) => [
      field,
      [...(defaults[field].before ?? []), ...described(mapping[field]), ...defaults[field].after],
    ]),
  ) as Record<Field, string[]>
}
