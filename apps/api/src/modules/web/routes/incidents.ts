import { listEnvironments } from '@shiplog/db/queries/catalog'
import { ListIncidentsQuery } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { HttpProblem } from '../../../kernel/problems.ts'
import { historyOf } from '../../audit/service.ts'
import {
  changeIncident,
  getIncident,
  listWorkspaceIncidents,
  openIncident,
} from '../../incidents/service.ts'
import type { WebDeps } from '../deps.ts'
import { pageQuery, parametersOf, pathId } from '../page-input.ts'
import { pageResponse, redirect } from '../responses.ts'
import { may, requireScope, signedIn } from '../signed-in.ts'
import { emptyForm } from '../views/form-fields.ts'
import { incidentPage } from '../views/incident.ts'
import { formInstant, incidentFormPage } from '../views/incident-form.ts'
import { incidentsPage } from '../views/incidents.ts'
import { layout } from '../views/layout.ts'

const FIELDS = ['title', 'environment', 'app', 'causeDeploymentId', 'startedAt'] as const

/** The environments a form offers, in pipeline order. */
const environmentNames = async (deps: WebDeps, workspaceId: string) =>
  (await listEnvironments(deps.readSql, workspaceId)).map((environment) => environment.environment)

const NOTICES: Record<string, string> = {
  opened: 'Incident opened.',
  resolved: 'Incident resolved.',
}

/** `/ui/incidents`: the list, one incident and its history, and the forms that open and resolve. */
export function incidentRoutes(deps: WebDeps) {
  return new Elysia()
    .get(
      '/ui/incidents',
      signedIn(deps, async (page) => {
        const owner = page.principal
        const query = pageQuery(page.url)
        const notice = NOTICES[query.get('notice') ?? '']
        query.delete('notice')
        const parsed = parametersOf(ListIncidentsQuery, query)
        const [list, environments] = await page.read(() =>
          Promise.all([
            listWorkspaceIncidents(deps.sql, owner, parsed),
            environmentNames(deps, owner.workspaceId),
          ]),
        )
        return incidentsPage(list, {
          ...page.viewer,
          mayWrite: may(page, 'incidents:write'),
          environments,
          ...(parsed.status ? { status: parsed.status } : {}),
          ...(notice ? { notice } : {}),
          form: emptyForm({ startedAt: formInstant(new Date()) }),
        })
      }),
    )
    .get(
      '/ui/incidents/:id',
      signedIn(deps, async (page) => {
        const id = pathId(page.url, 'incident')
        const [incident, history] = await page.read(() =>
          Promise.all([
            getIncident(deps.sql, page.principal, id),
            historyOf(deps.sql, page.principal, [id]),
          ]),
        )
        return incidentPage(incident, history, {
          ...page.viewer,
          mayWrite: may(page, 'incidents:write'),
        })
      }),
    )
    .post(
      '/ui/incidents',
      signedIn(deps, async (page) => {
        requireScope(page, 'incidents:write', 'Opening an incident')
        const values = Object.fromEntries(
          FIELDS.map((name) => [name, page.form.get(name)?.trim() || undefined]),
        )
        const { environment, title, app, causeDeploymentId, startedAt } = values
        try {
          await openIncident(
            deps.sql,
            page.principal,
            page.principal.actor,
            {
              environment: environment ?? '',
              title: title ?? '',
              ...(app ? { app } : {}),
              ...(causeDeploymentId ? { causeDeploymentId } : {}),
              ...(startedAt ? { startedAt } : {}),
            },
            new Date(),
          )
        } catch (error) {
          // Refused: the form again, as typed, each error beside its field.
          if (!(error instanceof HttpProblem) || error.status !== 422) throw error
          const environments = await page.read(() =>
            environmentNames(deps, page.principal.workspaceId),
          )
          const content = incidentFormPage(
            { values, errors: error.errors ?? [{ field: 'body', message: error.detail }] },
            { ...page.viewer, environments },
          )
          return pageResponse(layout(content, page.viewer), 422)
        }
        return redirect('/ui/incidents?notice=opened')
      }),
      { parse: 'none' },
    )
    .post(
      '/ui/incidents/:id/resolve',
      signedIn(deps, async (page) => {
        requireScope(page, 'incidents:write', 'Resolving an incident')
        const id = pathId(page.url, 'incident')
        const { principal } = page
        const now = new Date()
        await changeIncident(
          deps.sql,
          principal,
          principal.actor,
          id,
          { resolvedAt: now.toISOString() },
          now,
        )
        return redirect('/ui/incidents?notice=resolved')
      }),
      { parse: 'none' },
    )
}
