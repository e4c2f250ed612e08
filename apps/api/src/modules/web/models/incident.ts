import { historyOf } from '../../audit/service.ts'
import { getIncident } from '../../incidents/service.ts'
import { pathId } from '../page-input.ts'
import { may, type PageRequest } from '../signed-in.ts'
import type { IncidentModel } from '../views/incident.ts'

/** The incident of the page's path; a 404 for one that is no id. */
export const incidentInput = (page: PageRequest) => pathId(page.url, 'incident')

/** `GET /ui/incidents/{id}`: the incident and its history, from the primary, where both are written. */
export function incidentModel(page: PageRequest, id: string): Promise<IncidentModel> {
  return page.snapshot(async ({ sql }) => {
    const [incident, history] = await Promise.all([
      getIncident(sql, page.principal, id),
      historyOf(sql, page.principal, [id]),
    ])
    return { ...page.viewer, incident, history, mayWrite: may(page, 'incidents:write') }
  }, 'primary')
}
