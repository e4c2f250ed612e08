import { ListCommitsQuery } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { csvResponse } from '../../../kernel/csv.ts'
import { exportWorkspaceCommits, listWorkspaceCommits } from '../../commits/service.ts'
import type { WebDeps } from '../deps.ts'
import { pageQuery, parametersOf } from '../page-input.ts'
import { signedIn } from '../signed-in.ts'
import { type CommitFilters, commitsPage } from '../views/commits.ts'

/** `/ui/commits`: the commits change lead time counted, and their CSV. */
export function commitRoutes(deps: WebDeps) {
  const clients = { replica: deps.readSql, primary: deps.sql }
  return new Elysia()
    .get(
      '/ui/commits',
      signedIn(deps, async (page) => {
        const query = pageQuery(page.url)
        const parsed = parametersOf(ListCommitsQuery, query)
        const list = await page.read(() => listWorkspaceCommits(clients, page.principal, parsed))
        return commitsPage(list, Object.fromEntries(query) as CommitFilters)
      }),
    )
    .get(
      '/ui/commits.csv',
      signedIn(deps, async (page) => {
        const query = pageQuery(page.url)
        const { limit: _, cursor: __, ...parsed } = parametersOf(ListCommitsQuery, query)
        return csvResponse(deps.reads, page.principal.slot, 'commits.csv', (push) =>
          exportWorkspaceCommits(clients, page.principal, parsed, push),
        )
      }),
    )
}
