import type { Sql } from '@shiplog/db/client'
import { Elysia } from 'elysia'
import { NoQuery, queryOf } from '../../lib/parameters.ts'
import type { auth } from '../../plugins/auth/index.ts'
import { requireScope } from '../../plugins/auth/scopes.ts'
import type { rateLimit } from '../../plugins/rate-limit/index.ts'
import type { ReadSlots } from '../../plugins/rate-limit/read-slots.ts'
import { ByRepositoryQuery } from './model.ts'
import { listWorkspaceApplications, listWorkspaceEnvironments, workspaceState } from './service.ts'

/**
 * The workspace's catalogue: `GET /v1/applications`, `GET /v1/environments` (each with its
 * deployment count and latest deployment) and `GET /v1/state` (what is deployed where).
 */
export function catalogRoutes(deps: {
  /** The read pool: the replica at DATABASE_READ_URL, or the primary. */
  readSql: Sql
  reads: ReadSlots
  authenticated: ReturnType<typeof auth>
  limited: ReturnType<typeof rateLimit>
}) {
  const { readSql, reads } = deps
  return new Elysia({ prefix: '/v1' })
    .use(deps.authenticated)
    .use(deps.limited)
    .get('/applications', ({ owner, request }) => {
      requireScope(owner, 'read')
      const query = queryOf(ByRepositoryQuery, request)
      return reads.run(owner.keyId, () => listWorkspaceApplications(readSql, owner, query))
    })
    .get('/environments', ({ owner, request }) => {
      requireScope(owner, 'read')
      queryOf(NoQuery, request)
      return reads.run(owner.keyId, () => listWorkspaceEnvironments(readSql, owner))
    })
    .get('/state', ({ owner, request }) => {
      requireScope(owner, 'read')
      const query = queryOf(ByRepositoryQuery, request)
      return reads.run(owner.keyId, () => workspaceState(readSql, owner, query))
    })
}
