import { listEnvironments } from '@shiplog/db/queries/catalog'
import { allows } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { queryOf } from '../../../lib/parameters.ts'
import { HttpProblem } from '../../../plugins/problem/index.ts'
import { ListIncidentsQuery } from '../../incidents/model.ts'
import { changeIncident, listWorkspaceIncidents, openIncident } from '../../incidents/service.ts'
import { type PageRequest, redirect, signedIn, UUID, type WebDeps } from '../signed-in.ts'
import { incidentsPage } from './incidents.ts'
import { apiRequestOf, pageQuery } from './routes.ts'

function requireWrite(page: PageRequest): void {
  if (!allows(page.session.owner.scopes, 'incidents:write')) {
    throw new HttpProblem(
      403,
      'forbidden',
      'Forbidden',
      'Opening and resolving incidents needs a key with the incidents:write scope: sign in with one.',
    )
  }
}

/** `/ui/incidents`: the list, and the forms that open and resolve incidents. */
export function incidentRoutes(deps: WebDeps) {
  return new Elysia()
    .get(
      '/ui/incidents',
      signedIn(deps, async (page) => {
        const owner = page.session.owner
        const query = pageQuery(page.url)
        const notice = query.get('notice')
        query.delete('notice')
        const parsed = queryOf(ListIncidentsQuery, apiRequestOf(query))
        const [list, environments] = await deps.reads.run(owner.keyId, () =>
          Promise.all([
            listWorkspaceIncidents(deps.sql, owner, parsed),
            listEnvironments(deps.readSql, owner.workspaceId),
          ]),
        )
        return incidentsPage(list, {
          ...page.viewer,
          mayWrite: allows(owner.scopes, 'incidents:write'),
          environments: environments.map((environment) => environment.environment),
          ...(parsed.status ? { status: parsed.status } : {}),
          ...(notice === 'opened' ? { notice: 'Incident opened.' } : {}),
          ...(notice === 'resolved' ? { notice: 'Incident resolved.' } : {}),
        })
      }),
    )
    .post(
      '/ui/incidents',
      signedIn(deps, async (page) => {
        requireWrite(page)
        const field = (name: string) => page.form.get(name)?.trim() || undefined
        const app = field('app')
        const cause = field('causeDeploymentId')
        await openIncident(
          deps.sql,
          page.session.owner,
          {
            environment: field('environment') ?? '',
            title: field('title') ?? '',
            ...(app ? { app } : {}),
            ...(cause ? { causeDeploymentId: cause } : {}),
          },
          new Date(),
        )
        return redirect('/ui/incidents?notice=opened')
      }),
      { parse: 'none' },
    )
    .post(
      '/ui/incidents/:id/resolve',
      signedIn(deps, async (page) => {
        requireWrite(page)
        const id = page.url.pathname.split('/')[3] ?? ''
        if (!UUID.test(id))
          throw new HttpProblem(404, 'not-found', 'Not Found', 'No such incident.')
        await changeIncident(deps.sql, page.session.owner, id, {
          resolvedAt: new Date().toISOString(),
        })
        return redirect('/ui/incidents?notice=resolved')
      }),
      { parse: 'none' },
    )
}
