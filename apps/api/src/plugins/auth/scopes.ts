import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { allows, type Scope } from '@shiplog/schema'
import { problems } from '../../kernel/problems.ts'

const WHAT: Record<Scope, string> = {
  'deployments:write': 'record deployments',
  'incidents:write': 'open or change incidents',
  'environments:write': 'set where an environment stands in the pipeline',
  read: 'read deployments, applications or metrics',
  admin: 'correct the record',
}

/**
 * Refuses, with 403, a request whose key lacks the scope it needs. The route registrar
 * (`route-table/register.ts`) calls it first: after authentication (401) and the rate limit
 * (429), before the parameters and the body.
 */
export function requireScope(owner: KeyOwner, needed: Scope): void {
  if (allows(owner.scopes, needed)) return
  throw problems.forbidden(
    `This key may not ${WHAT[needed]}: it has the scopes ${owner.scopes.join(', ')}, and this ` +
      `needs ${needed}. Ask whoever runs Shiplog for a key with it ` +
      `(bun run keys create --scope ${needed} …).`,
  )
}
