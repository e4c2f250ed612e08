import { ListCommitsQuery } from '@shiplog/schema'
import { listWorkspaceCommits } from '../../commits/service.ts'
import { pageQuery, parametersOf } from '../page-input.ts'
import type { PageRequest } from '../signed-in.ts'
import type { CommitFilters, CommitsModel } from '../views/commits.ts'

/** The commits page's input: its filters as typed, and as `GET /v1/commits` checks them. */
export interface CommitsInput {
  filters: CommitFilters
  query: ListCommitsQuery
}

/** The commits page's query, checked as the API checks it. */
export function commitsInput(page: PageRequest): CommitsInput {
  const query = pageQuery(page.url)
  return {
    filters: Object.fromEntries(query) as CommitFilters,
    query: parametersOf(ListCommitsQuery, query),
  }
}

/** `GET /ui/commits`: a page of the commits change lead time counted. */
export function commitsModel(
  page: PageRequest,
  { filters, query }: CommitsInput,
): Promise<CommitsModel> {
  return page.snapshot(async ({ clients }) => ({
    list: await listWorkspaceCommits(clients, page.principal, query),
    filters,
  }))
}
