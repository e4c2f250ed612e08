// What each Shiplog field is taken from, in order, for a source under a mapping: what the
// integration's answers show as `mappingInEffect`, so nobody has to read the docs to know why a
// deployment got its app. It mirrors the readers (github/deployment-status.ts,
// gitlab/deployment-hook.ts), whose order it states.

import type { IntegrationMapping, MappingValue } from '@shiplog/schema/integration'
import type { IntegrationSource } from './interpret.ts'

type Field = keyof IntegrationMapping

const GITHUB: Record<Field, { before?: string[]; after: string[] }> = {
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
}

const GITLAB: Record<Field, { before?: string[]; after: string[] }> = {
  app: { after: ['the project’s name in project.path_with_namespace'] },
  environment: { after: ['environment'] },
  repository: { after: ['project.path_with_namespace'] },
  version: { after: ['the commit SHA (its first 12 characters)'] },
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
  const defaults = source === 'github' ? GITHUB : GITLAB
  const fields: Field[] = ['app', 'environment', 'repository', 'version']
  return Object.fromEntries(
    fields.map((field) => [
      field,
      [...(defaults[field].before ?? []), ...described(mapping[field]), ...defaults[field].after],
    ]),
  ) as Record<Field, string[]>
}
