import type { Sql } from '@shiplog/db/client'
import { listApplications, listEnvironments } from '@shiplog/db/queries/catalog'
import { deploymentMatrix } from '@shiplog/db/queries/state'
import { nameKey } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { NoQuery, queryOf } from '../../lib/parameters.ts'
import type { auth } from '../../plugins/auth/index.ts'
import type { rateLimit } from '../../plugins/rate-limit/index.ts'
import type { ReadSlots } from '../../plugins/rate-limit/read-slots.ts'
import { ByRepositoryQuery } from './model.ts'

const repositoryKey = (repository: string | undefined) =>
  repository === undefined ? undefined : nameKey(repository)

/**
 * The workspace's catalogue: `GET /v1/applications`, `GET /v1/environments` (each with its
 * deployment count and latest deployment) and `GET /v1/state` (what is deployed where).
 */
export function catalogRoutes(deps: {
  sql: Sql
  reads: ReadSlots
  authenticated: ReturnType<typeof auth>
  limited: ReturnType<typeof rateLimit>
}) {
  const { sql, reads } = deps
  return new Elysia({ prefix: '/v1' })
    .use(deps.authenticated)
    .use(deps.limited)
    .get('/applications', async ({ owner, request }) => {
      const { repository } = queryOf(ByRepositoryQuery, request)
      const data = await reads.run(owner.keyId, () =>
        listApplications(sql, owner.workspaceId, repositoryKey(repository)),
      )
      return { data }
    })
    .get('/environments', async ({ owner, request }) => {
      queryOf(NoQuery, request)
      return { data: await reads.run(owner.keyId, () => listEnvironments(sql, owner.workspaceId)) }
    })
    .get('/state', ({ owner, request }) => {
      const { repository } = queryOf(ByRepositoryQuery, request)
      return reads.run(owner.keyId, () =>
        deploymentMatrix(sql, owner.workspaceId, repositoryKey(repository)),
      )
    })
}
