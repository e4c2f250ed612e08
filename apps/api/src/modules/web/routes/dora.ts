import { listEnvironments } from '@shiplog/db/queries/catalog'
import { DoraQuery } from '@shiplog/schema'
import { Elysia } from 'elysia'
import { csvHeaders } from '../../../kernel/csv.ts'
import { doraMetricsOf } from '../../dora/five-keys-service.ts'
import { doraSeriesCsv } from '../../dora/series-csv.ts'
import type { WebDeps } from '../deps.ts'
import { doraComparisonOf } from '../dora-comparison.ts'
import { pageQuery, parametersOf } from '../page-input.ts'
import { signedIn } from '../signed-in.ts'
import { doraPage } from '../views/dora.ts'
import { type DoraRange, selectionOf } from '../views/dora-selection.ts'

const DAY_MS = 86_400_000

/** The window of a preset, ending now: `since`, `until` when not now, and its buckets. */
export function rangeWindow(range: DoraRange, now: Date) {
  const iso = (ms: number) => new Date(ms).toISOString()
  const quarterStart = (year: number, quarter: number) => Date.UTC(year, quarter * 3, 1)
  const quarter = Math.floor(now.getUTCMonth() / 3)
  const year = now.getUTCFullYear()
  switch (range) {
    case '7d':
      return { since: iso(now.getTime() - 7 * DAY_MS), bucket: 'day' as const }
    case '30d':
      return { since: iso(now.getTime() - 30 * DAY_MS), bucket: 'day' as const }
    case '90d':
      return { since: iso(now.getTime() - 90 * DAY_MS), bucket: 'week' as const }
    case 'quarter':
      return { since: iso(quarterStart(year, quarter)), bucket: 'week' as const }
    case 'previous-quarter':
      return {
        since: iso(quarterStart(quarter === 0 ? year - 1 : year, (quarter + 3) % 4)),
        until: iso(quarterStart(year, quarter)),
        bucket: 'week' as const,
      }
  }
}

/**
 * `GET /ui/dora`: the five keys of one environment (production by default) over a window; and
 * `/ui/dora.csv`, the page's series as the API's CSV, from the API's parameters (the page's link
 * carries the exact window it shows).
 */
export function doraRoutes(deps: WebDeps) {
  return new Elysia()
    .get(
      '/ui/dora.csv',
      signedIn(deps, async (page) => {
        const parsed = parametersOf(DoraQuery, pageQuery(page.url))
        const metrics = await page.read(() => doraMetricsOf(deps.readSql, page.principal, parsed))
        return new Response(doraSeriesCsv(metrics), { headers: csvHeaders('dora.csv') })
      }),
    )
    .get(
      '/ui/dora',
      signedIn(deps, async (page) => {
        const owner = page.principal
        const query = pageQuery(page.url)
        const environments = await page.read(() =>
          listEnvironments(deps.readSql, owner.workspaceId),
        )
        const names = environments.map((environment) => environment.environment)
        const production = environments
          .filter((each) => each.production)
          .map((each) => each.environment)
        // Every production environment by default (the API's answer without one); without any,
        // the last environment in pipeline order.
        const environment =
          query.get('environment') ?? (production.length > 0 ? undefined : names.at(-1))
        const selection = selectionOf(query, environment)
        const listed = { names, production }
        if (environment === undefined && production.length === 0) {
          return doraPage(undefined, selection, listed)
        }
        // The window a shared link gives (validated as the API validates it), else the preset;
        // ending at an instant, so the figures and the comparison read the same window.
        const preset = rangeWindow(selection.range, new Date())
        const window: Record<string, string> =
          selection.since || selection.until
            ? {
                ...(selection.since ? { since: selection.since } : {}),
                until: selection.until ?? new Date().toISOString(),
                bucket: 'week',
              }
            : {
                since: preset.since,
                until: preset.until ?? new Date().toISOString(),
                bucket: preset.bucket,
              }
        const api = new URLSearchParams({ ...(environment ? { environment } : {}), ...window })
        if (selection.app) api.set('app', selection.app)
        if (selection.repository) api.set('repository', selection.repository)
        const parsed = parametersOf(DoraQuery, api)
        const { since, until } = parsed
        // One read of the session's, two statements at once on the replica; the comparison only
        // for a window the API takes (else its answer says why).
        const [metrics, comparison] = await page.read(() =>
          Promise.all([
            doraMetricsOf(deps.readSql, owner, parsed),
            since && until
              ? doraComparisonOf(
                  deps.readSql,
                  owner.workspaceId,
                  environment ? [environment] : production,
                  {
                    ...parsed,
                    since,
                    until,
                  },
                )
              : undefined,
          ]),
        )
        return doraPage(metrics, selection, listed, comparison)
      }),
    )
}
