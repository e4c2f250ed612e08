import { type IncidentInputFields, instantFromDate, validateIncidentInput } from '@shiplog/schema'
import { changeIncident, openIncident } from '../../incidents/service.ts'
import type { WebDeps } from '../deps.ts'
import { environmentNames } from '../models/incidents.ts'
import { pathId } from '../page-input.ts'
import type { FormDeclaration, PostedValue } from '../posted-form.ts'
import { redirect } from '../responses.ts'
import type { PageRequest } from '../signed-in.ts'
import { incidentFormPage } from '../views/incident-form.ts'

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

/** Opening an incident: the API's body and check; refused, the form again as typed. */
export const openIncidentForm: FormDeclaration<IncidentInputFields> = {
  needs: { scope: 'incidents:write', what: 'Opening an incident' },
  bodyOf: incidentBodyOf,
  check: validateIncidentInput,
  refused: async (page, errors) => {
    const environments = await page.snapshot(({ sql }) =>
      environmentNames(sql, page.principal.workspaceId),
    )
    const values = Object.fromEntries(FIELDS.map((name) => [name, typedIn(page.form, name)]))
    return incidentFormPage({ values, errors }, { ...page.viewer, environments })
  },
}

/** Opens the incident the form describes, then lists incidents saying so. */
export async function openFromForm({
  page,
  web,
  value,
  receivedAt,
}: PostedValue<IncidentInputFields>) {
  const { principal } = page
  await openIncident(web.sql, principal, principal.actor, value, receivedAt)
  return redirect('/ui/incidents?notice=opened')
}

/** Resolves the incident of the page's path now, then lists incidents saying so. */
export async function resolveFromForm(page: PageRequest, web: WebDeps) {
  const id = pathId(page.url, 'incident')
  const { principal } = page
  await changeIncident(web.sql, principal, principal.actor, id, {
    resolvedAt: instantFromDate(new Date()),
  })
  return redirect('/ui/incidents?notice=resolved')
}
