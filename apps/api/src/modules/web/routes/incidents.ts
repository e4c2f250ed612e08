import { Elysia } from 'elysia'
import { openFromForm, openIncidentForm, resolveFromForm } from '../forms/incidents.ts'
import { incidentInput, incidentModel } from '../models/incident.ts'
import { incidentsInput, incidentsModel } from '../models/incidents.ts'
import { answeredBy, shown } from '../page-handler.ts'
import { postedForm } from '../posted-form.ts'
import type { SignedInPages } from '../signed-in.ts'
import { incidentPage } from '../views/incident.ts'
import { incidentsPage } from '../views/incidents.ts'

/** `/ui/incidents`: the list, one incident and its history, and the forms that open and resolve. */
export function incidentPages(pages: SignedInPages) {
  return new Elysia()
    .use(pages)
    .get('/ui/incidents', shown(incidentsInput, incidentsModel, incidentsPage), { signedIn: true })
    .get('/ui/incidents/:id', shown(incidentInput, incidentModel, incidentPage), { signedIn: true })
    .post('/ui/incidents', ...postedForm(openIncidentForm, openFromForm))
    .post('/ui/incidents/:id/resolve', answeredBy(resolveFromForm), {
      signedIn: { scope: 'incidents:write', what: 'Resolving an incident' },
      parse: 'none',
    })
}
