import { listEnvironments } from '@shiplog/db/queries/catalog'
import { CompareQuery } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { releaseNotes } from '../../compare/release-notes.ts'
import { compareEnvironments } from '../../compare/service.ts'
import type { WebDeps } from '../deps.ts'
import { pageQuery, parametersOf } from '../page-input.ts'
import { signedIn } from '../signed-in.ts'
import { type CompareSelection, comparePage } from '../views/compare.ts'

const pick = (query: URLSearchParams): CompareSelection =>
  Object.fromEntries(
    (['app', 'repository', 'from', 'to'] as const).flatMap((name) => {
      const value = query.get(name)
      return value ? [[name, value]] : []
    }),
  )

/** `/ui/compare`: what waits between two environments of an application, and its release notes. */
export function compareRoutes(deps: WebDeps) {
  return new Elysia()
    .get(
      '/ui/compare',
      signedIn(deps, async (page) => {
        const owner = page.principal
        const query = pageQuery(page.url)
        const environments = await page.read(() =>
          listEnvironments(deps.readSql, owner.workspaceId),
        )
        const names = environments.map((environment) => environment.environment)
        // Until asked, the form proposes the last environment before production, and production.
        const to = environments.findIndex((environment) => environment.production)
        const selection: CompareSelection = {
          ...(to > 0 ? { from: names[to - 1], to: names[to] } : {}),
          ...pick(query),
        }
        if (!query.has('app') || !query.has('from') || !query.has('to')) {
          return comparePage(undefined, selection, names)
        }
        const parsed = parametersOf(CompareQuery, query)
        const comparison = await page.read(() => compareEnvironments(deps.readSql, owner, parsed))
        return comparePage(comparison, selection, names)
      }),
    )
    .get(
      '/ui/compare.md',
      signedIn(deps, async (page) => {
        const parsed = parametersOf(CompareQuery, pageQuery(page.url))
        const comparison = await page.read(() =>
          compareEnvironments(deps.readSql, page.principal, parsed),
        )
        const name =
          `${comparison.app}-${comparison.from.environment}-to-${comparison.to.environment}`
            .replace(/[^\w.-]+/g, '-')
            .slice(0, 100)
        return new Response(releaseNotes(comparison), {
          headers: {
            'content-type': 'text/markdown; charset=utf-8',
            'content-disposition': `attachment; filename="${name}.md"`,
            'cache-control': 'no-store',
          },
        })
      }),
    )
}
