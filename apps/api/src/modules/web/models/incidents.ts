import type { Sql } from '@shiplog/db/client'
import { listEnvironments } from '@shiplog/db/queries/catalog'
import { ListIncidentsQuery } from '@shiplog/schema'
import { listWorkspaceIncidents } from '../../incidents/service.ts'
import { pageQuery, parametersOf } from '../page-input.ts'
import { may, type PageRequest } from '../signed-in.ts'
import { emptyForm } from '../views/form-fields.ts'
import { formInstant } from '../views/incident-form.ts'
import type { IncidentsModel } from '../views/incidents.ts'

const NOTICES: Record<string, string> = {
  opened: 'Incident opened.',
  resolved: 'Incident resolved.',
}

/** The incidents page's input: its query as `GET /v1/incidents` checks it, and a form's notice. */
export interface IncidentsInput {
  query: ListIncidentsQuery
  notice?: string
}

/** The page's query, checked as the API checks it; `notice` says what a form just did. */
export function incidentsInput(page: PageRequest): IncidentsInput {
  const query = pageQuery(page.url)
  const notice = NOTICES[query.get('notice') ?? '']
  query.delete('notice')
  return { query: parametersOf(ListIncidentsQuery, query), ...(notice ? { notice } : {}) }
}

/** The environments a form offers, in pipeline order. */
export const environmentNames = async (sql: Sql, workspaceId: string) =>
  (await listEnvironments(sql, workspaceId)).map((environment) => environment.environment)

/**
 * `GET /ui/incidents`: a page of them, newest first, and the form that opens one. From the
 * primary, where a form writes them: the page a form redirects to shows what it did.
 */
export function incidentsModel(
  page: PageRequest,
  { query, notice }: IncidentsInput,
): Promise<IncidentsModel> {
  const owner = page.principal
  return page.snapshot(async ({ sql }) => {
    const [list, environments] = await Promise.all([
      listWorkspaceIncidents(sql, owner, query),
      environmentNames(sql, owner.workspaceId),
    ])
    return {
      ...page.viewer,
      list,
      mayWrite: may(page, 'incidents:write'),
      environments,
      ...(query.status ? { status: query.status } : {}),
      ...(notice ? { notice } : {}),
      form: emptyForm({ startedAt: formInstant(new Date()) }),
    }
  }, 'primary')
}
