import type { Sql } from '@shiplog/db/client'
import { Elysia } from 'elysia'
import { type BodyLimits, readJsonBody } from '../../lib/json-body.ts'
import { NoQuery, pathOf, queryOf } from '../../lib/parameters.ts'
import type { auth } from '../../plugins/auth/index.ts'
import { requireScope } from '../../plugins/auth/scopes.ts'
import type { rateLimit } from '../../plugins/rate-limit/index.ts'
import type { ReadSlots } from '../../plugins/rate-limit/read-slots.ts'
import { IncidentIdParams, ListIncidentsQuery } from './model.ts'
import { changeIncident, getIncident, listWorkspaceIncidents, openIncident } from './service.ts'

/**
 * `/v1/incidents`: open one (`POST`), change or resolve it (`PATCH /{id}`), read them. Writes go
 * to the primary, so a 201's Location reads back at once: reads use it too (incidents are few).
 */
export function incidentRoutes(deps: {
  sql: Sql
  reads: ReadSlots
  bodyLimits: BodyLimits
  authenticated: ReturnType<typeof auth>
  limited: ReturnType<typeof rateLimit>
}) {
  const { sql, reads, bodyLimits } = deps
  return new Elysia({ prefix: '/v1/incidents' })
    .use(deps.authenticated)
    .use(deps.limited)
    .post(
      '',
      async ({ request, owner, set }) => {
        const receivedAt = new Date()
        requireScope(owner, 'incidents:write')
        queryOf(NoQuery, request)
        const incident = await openIncident(
          sql,
          owner,
          await readJsonBody(request, bodyLimits, 'the incident fields'),
          receivedAt,
        )
        set.status = 201
        set.headers.location = `/v1/incidents/${incident.id}`
        return incident
      },
      { parse: 'none' },
    )
    .patch(
      '/:id',
      async ({ request, owner, params }) => {
        requireScope(owner, 'incidents:write')
        queryOf(NoQuery, request)
        const { id } = pathOf(IncidentIdParams, params)
        return changeIncident(
          sql,
          owner,
          id,
          await readJsonBody(request, bodyLimits, 'the incident fields to change'),
        )
      },
      { parse: 'none' },
    )
    .get('', ({ owner, request }) => {
      requireScope(owner, 'read')
      const query = queryOf(ListIncidentsQuery, request)
      return reads.run(owner.keyId, () => listWorkspaceIncidents(sql, owner, query))
    })
    .get('/:id', ({ owner, params, request }) => {
      requireScope(owner, 'read')
      queryOf(NoQuery, request)
      const { id } = pathOf(IncidentIdParams, params)
      return reads.run(owner.keyId, () => getIncident(sql, owner, id))
    })
}
