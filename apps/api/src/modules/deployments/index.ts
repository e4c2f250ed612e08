import type { Sql } from '@shiplog/db/client'
import { Elysia } from 'elysia'
import type { Enqueuer } from '../../enqueue/deployment-queue.ts'
import { type BodyLimits, readJsonBody } from '../../lib/json-body.ts'
import { parseQuery } from '../../lib/query.ts'
import type { auth } from '../../plugins/auth/index.ts'
import type { rateLimit } from '../../plugins/rate-limit/index.ts'
import { ListDeploymentsQuery } from './model.ts'
import { acceptDeployment, listWorkspaceDeployments } from './service.ts'

/** What the deployments routes need from the rest of the app. */
export interface DeploymentRoutesDeps {
  sql: Sql
  queue: Enqueuer
  authenticated: ReturnType<typeof auth>
  limited: ReturnType<typeof rateLimit>
  bodyLimits: BodyLimits
}

/** `POST /v1/deployments` (record a deployment) and `GET /v1/deployments` (read them back). */
export function deploymentRoutes(deps: DeploymentRoutesDeps) {
  const { sql, queue, bodyLimits } = deps
  return new Elysia({ prefix: '/v1/deployments' })
    .use(deps.authenticated)
    .use(deps.limited)
    .post(
      '',
      async ({ request, owner, set }) => {
        const receivedAt = new Date()
        const body = await readJsonBody(request, bodyLimits)
        await acceptDeployment(
          queue,
          owner,
          body,
          request.headers.get('idempotency-key'),
          receivedAt,
        )
        set.status = 202
        return { status: 202 }
      },
      // Parsed by hand after auth and rate limit, so checks run in the contract's order.
      { parse: 'none' },
    )
    .get('', ({ owner, query }) =>
      listWorkspaceDeployments(sql, owner, parseQuery(ListDeploymentsQuery, query)),
    )
}
