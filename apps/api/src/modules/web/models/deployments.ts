import { ListDeploymentsQuery } from '@shiplog/schema'
import { listWorkspaceDeployments } from '../../deployments/service.ts'
import { pageQuery, parametersOf } from '../page-input.ts'
import type { PageRequest } from '../signed-in.ts'
import type { DeploymentsModel, TimelineFilters } from '../views/deployments.ts'

/** The timeline's input: its filters as typed, and as `GET /v1/deployments` checks them. */
export interface DeploymentsInput {
  filters: TimelineFilters
  query: ListDeploymentsQuery
}

/** The timeline's query, checked as the API checks it: what it refuses is refused alike. */
export function deploymentsInput(page: PageRequest): DeploymentsInput {
  const query = pageQuery(page.url)
  const filters = Object.fromEntries(query) as TimelineFilters
  return { filters, query: parametersOf(ListDeploymentsQuery, query) }
}

/** `GET /ui/deployments`: a page of the timeline, newest first. */
export function deploymentsModel(
  page: PageRequest,
  { filters, query }: DeploymentsInput,
): Promise<DeploymentsModel> {
  return page.snapshot(async ({ clients, queue }) => ({
    list: await listWorkspaceDeployments(clients, queue, page.principal, query),
    filters,
  }))
}
