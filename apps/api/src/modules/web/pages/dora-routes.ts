import { listEnvironments } from '@shiplog/db/queries/catalog'
import { Elysia } from 'elysia'
import { queryOf } from '../../../lib/parameters.ts'
import { doraMetricsOf } from '../../dora/dora-service.ts'
import { DoraQuery } from '../../dora/model.ts'
import { signedIn, type WebDeps } from '../signed-in.ts'
import { type DoraSelection, doraPage, WINDOW_WEEKS } from './dora.ts'
import { apiRequestOf, pageQuery } from './routes.ts'

const WEEK_MS = 7 * 86_400_000

/** `GET /ui/dora`: the five keys of one environment over the last weeks (12 by default). */
export function doraRoutes(deps: WebDeps) {
  return new Elysia().get(
    '/ui/dora',
    signedIn(deps, async (page) => {
      const owner = page.session.owner
      const query = pageQuery(page.url)
      const environments = (
        await deps.reads.run(owner.keyId, () => listEnvironments(deps.readSql, owner.workspaceId))
      ).map((environment) => environment.environment)
      const asked = Number(query.get('weeks'))
      const weeks = (WINDOW_WEEKS as readonly number[]).includes(asked) ? asked : 12
      const environment = query.get('environment') ?? environments[0]
      const selection: DoraSelection = {
        weeks,
        ...(environment === undefined ? {} : { environment }),
        ...(query.get('app') ? { app: query.get('app') as string } : {}),
        ...(query.get('repository') ? { repository: query.get('repository') as string } : {}),
        ...(query.get('since') ? { since: query.get('since') as string } : {}),
        ...(query.get('until') ? { until: query.get('until') as string } : {}),
      }
      if (environment === undefined) return doraPage(undefined, selection, environments)
      // The window a shared link gives (validated as the API validates it); else the last
      // weeks up to now.
      const window: Record<string, string> =
        selection.since || selection.until
          ? {
              ...(selection.since ? { since: selection.since } : {}),
              ...(selection.until ? { until: selection.until } : {}),
            }
          : { since: new Date(Date.now() - weeks * WEEK_MS).toISOString() }
      const api = new URLSearchParams({ environment, ...window, bucket: 'week' })
      if (selection.app) api.set('app', selection.app)
      if (selection.repository) api.set('repository', selection.repository)
      const parsed = queryOf(DoraQuery, apiRequestOf(api))
      const metrics = await deps.reads.run(owner.keyId, () =>
        doraMetricsOf(deps.readSql, owner, parsed),
      )
      return doraPage(metrics, selection, environments)
    }),
  )
}
