import { listEnvironments } from '@shiplog/db/queries/catalog'
import { CompareQuery } from '@shiplog/schema'
import { compareEnvironments } from '../../compare/service.ts'
import { parametersOf } from '../page-input.ts'
import type { PageRequest } from '../signed-in.ts'
import type { CompareModel, CompareSelection } from '../views/compare.ts'

const pick = (query: URLSearchParams): CompareSelection =>
  Object.fromEntries(
    (['app', 'repository', 'from', 'to'] as const).flatMap((name) => {
      const value = query.get(name)
      return value ? [[name, value]] : []
    }),
  )

/** `GET /ui/compare`: what waits between two environments of an application. */
export function compareModel(page: PageRequest, query: URLSearchParams): Promise<CompareModel> {
  const owner = page.principal
  return page.snapshot(async ({ sql }) => {
    const environments = await listEnvironments(sql, owner.workspaceId)
    const names = environments.map((environment) => environment.environment)
    // Until asked, the form proposes the last environment before production, and production.
    const to = environments.findIndex((environment) => environment.production)
    const selection: CompareSelection = {
      ...(to > 0 ? { from: names[to - 1], to: names[to] } : {}),
      ...pick(query),
    }
    if (!query.has('app') || !query.has('from') || !query.has('to')) {
      return { comparison: undefined, selection, environments: names }
    }
    const comparison = await compareEnvironments(sql, owner, parametersOf(CompareQuery, query))
    return { comparison, selection, environments: names }
  })
}
