import { listEnvironments } from '@shiplog/db/queries/catalog'
import { instantFromDate, ListIncidentsQuery, validateIncidentInput } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { historyOf } from '../../audit/service.ts'
import {
  changeIncident,
  getIncident,
  listWorkspaceIncidents,
  openIncident,
} from '../../incidents/service.ts'
import type { WebDeps } from '../deps.ts'
import { pageQuery, parametersOf, pathId } from '../page-input.ts'
import { postedForm } from '../posted-form.ts'
import { redirect } from '../responses.ts'
import { may, requireRole, signedIn } from '../signed-in.ts'
import { emptyForm } from '../views/form-fields.ts'
import { incidentPage } from '../views/incident.ts'
import { formInstant, incidentFormPage } from '../views/incident-form.ts'
import { incidentsPage } from '../views/incidents.ts'

const FIELDS = ['title', 'environment', 'app', 'causeDeploymentId', 'startedAt'] as const

/** A field as typed, trimmed; a blank one is left out. */
const typedIn = (form: URLSearchParams, name: string) => form.get(name)?.trim() || undefined

/** The `POST /v1/incidents` body the open form stands for: its filled fields. */
function incidentBodyOf(form: URLSearchParams) {
  const body: Record<string, string> = {
    environment: typedIn(form, 'environment') ?? '',
    title: typedIn(form, 'title') ?? '',
  }
  for (const name of ['app', 'causeDeploymentId', 'startedAt'] as const) {
    const value = typedIn(form, name)
    if (value) body[name] = value
  }
  return body
}

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
      postedForm(
        deps,
        {
          needs: { scope: 'incidents:write', what: 'Opening an incident' },
          bodyOf: incidentBodyOf,
          check: validateIncidentInput,
          // The form again, as typed, each error beside its field.
          refused: async (page, errors) => {
            const environments = await page.read(() =>
              environmentNames(deps, page.principal.workspaceId),
            )
            const values = Object.fromEntries(
              FIELDS.map((name) => [name, typedIn(page.form, name)]),
            )
            return incidentFormPage({ values, errors }, { ...page.viewer, environments })
          },
        },
        async (page, fields, receivedAt) => {
          const { principal } = page
          await openIncident(deps.sql, principal, principal.actor, fields, receivedAt)
          return redirect('/ui/incidents?notice=opened')
        },
      ),
      { parse: 'none' },
    )
    .post(
      '/ui/incidents/:id/resolve',
      signedIn(deps, async (page) => {
        requireRole(page, 'incidents:write', 'Resolving an incident')
        const id = pathId(page.url, 'incident')
        const { principal } = page
        await changeIncident(deps.sql, principal, principal.actor, id, {
          resolvedAt: instantFromDate(new Date()),
        })
        return redirect('/ui/incidents?notice=resolved')
      }),
      { parse: 'none' },
    )
}
