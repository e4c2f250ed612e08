import type { Sql } from '@shiplog/db/client'
import type { PgBoss } from '@shiplog/db/queue'
import { Elysia } from 'elysia'
import type { Enqueuer } from '../../enqueue/enqueuer.ts'
import { type BodyLimits, readJsonBody } from '../../lib/json-body.ts'
import { NoQuery, pathOf, queryOf } from '../../lib/parameters.ts'
import type { auth } from '../../plugins/auth/index.ts'
import { requireScope } from '../../plugins/auth/scopes.ts'
import type { rateLimit } from '../../plugins/rate-limit/index.ts'
import type { ReadSlots } from '../../plugins/rate-limit/read-slots.ts'
import { COMMITS_BODY_MAX_BYTES, deploymentCommitsOf, storeDeploymentCommits } from './commits.ts'
import { DeploymentIdParams, ListDeploymentsQuery } from './model.ts'
import {
  acceptDeployment,
  getDeployment,
  listWorkspaceDeployments,
  voidReasonOf,
  voidWorkspaceDeployment,
} from './service.ts'

/** What the deployments routes need from the rest of the app. */
export interface DeploymentRoutesDeps {
  /** The primary: the queue lives there, and every write lands there first. */
  sql: Sql
  /** The read pool: the replica at DATABASE_READ_URL, or `sql` itself. */
  readSql: Sql
  boss: PgBoss
  queue: Enqueuer
  authenticated: ReturnType<typeof auth>
  limited: ReturnType<typeof rateLimit>
  bodyLimits: BodyLimits
  reads: ReadSlots
  receipts: ReadSlots
}

/** `POST /v1/deployments` (record one), `GET /v1/deployments` and `GET /v1/deployments/{id}`. */
export function deploymentRoutes(deps: DeploymentRoutesDeps) {
  const { boss, queue, bodyLimits, reads, receipts } = deps
  const clients = { replica: deps.readSql, primary: deps.sql }
  return new Elysia({ prefix: '/v1/deployments' })
    .use(deps.authenticated)
    .use(deps.limited)
    .post(
      '',
      async ({ request, owner, set }) => {
        const receivedAt = new Date()
        requireScope(owner, 'deployments:write')
        const body = await readJsonBody(request, bodyLimits, 'the deployment fields')
        const idempotencyKey = request.headers.get('idempotency-key')
        const id = await acceptDeployment(queue, owner, body, idempotencyKey, receivedAt)
        set.status = 202
        set.headers.location = `/v1/deployments/${id}`
        return { status: 202 }
      },
      // Parsed by hand after auth and rate limit, so checks run in the contract's order.
      { parse: 'none' },
    )
    .get('', ({ owner, request }) => {
      requireScope(owner, 'read')
      const query = queryOf(ListDeploymentsQuery, request)
      return reads.run(owner.keyId, () => listWorkspaceDeployments(clients, owner, query))
    })
    .put(
      '/:id/commits',
      async ({ request, owner, params, set }) => {
        requireScope(owner, 'deployments:write')
        queryOf(NoQuery, request)
        const { id } = pathOf(DeploymentIdParams, params)
        const limits = { ...bodyLimits, maxBytes: COMMITS_BODY_MAX_BYTES }
        await storeDeploymentCommits(
          clients,
          boss,
          owner,
          id,
          await readJsonBody(request, limits, 'the commits the deployment delivered'),
        )
        set.status = 204
      },
      { parse: 'none' },
    )
    .get('/:id/commits', ({ owner, params, request }) => {
      requireScope(owner, 'read')
      queryOf(NoQuery, request)
      const { id } = pathOf(DeploymentIdParams, params)
      return reads.run(owner.keyId, () => deploymentCommitsOf(clients, owner, id))
    })
    .delete(
      '/:id',
      async ({ request, owner, params }) => {
        requireScope(owner, 'admin')
        queryOf(NoQuery, request)
        const { id } = pathOf(DeploymentIdParams, params)
        const reason = await voidReasonOf(request, bodyLimits)
        return voidWorkspaceDeployment(clients, boss, owner, id, reason)
      },
      { parse: 'none' },
    )
    .get('/:id', ({ owner, params, request }) => {
      requireScope(owner, 'read')
      queryOf(NoQuery, request)
      const { id } = pathOf(DeploymentIdParams, params)
      return receipts.run(owner.keyId, () => getDeployment(clients, boss, owner, id))
    })
}
