import { listEnvironments } from '@shiplog/db/queries/catalog'
import { DoraQuery } from '@shiplog/schema'
import { doraMetricsOf } from '../../dora/service.ts'
import { parametersOf } from '../page-input.ts'
import type { PageRequest } from '../signed-in.ts'
import type { DoraModel } from '../views/dora.ts'
import { type DoraRange, type DoraSelection, selectionOf } from '../views/dora-selection.ts'
import { doraComparisonOf } from './dora-comparison.ts'

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
 * The API's query for what the page shows: the window a shared link gives (validated as the API
 * validates it), else the preset; ending at an instant, so the figures and the comparison read
 * the same window.
 */
function apiQueryOf(selection: DoraSelection): URLSearchParams {
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
  const { environment } = selection
  const api = new URLSearchParams({ ...(environment ? { environment } : {}), ...window })
  if (selection.app) api.set('app', selection.app)
  if (selection.repository) api.set('repository', selection.repository)
  return api
}

/**
 * `GET /ui/dora`: the five keys of one environment, or of every production one (the API's
 * answer without one), over a window; the period before it and each application beside them.
 */
export function doraModel(page: PageRequest, query: URLSearchParams): Promise<DoraModel> {
  const owner = page.principal
  return page.snapshot(async ({ sql }) => {
    const all = await listEnvironments(sql, owner.workspaceId)
    const names = all.map((environment) => environment.environment)
    const production = all.filter((each) => each.production).map((each) => each.environment)
    // Every production environment by default; without any, the last in pipeline order.
    const environment =
      query.get('environment') ?? (production.length > 0 ? undefined : names.at(-1))
    const selection = selectionOf(query, environment)
    const environments = { names, production }
    if (environment === undefined && production.length === 0) {
      return { metrics: undefined, selection, environments }
    }
    const parsed = parametersOf(DoraQuery, apiQueryOf(selection))
    const { since, until } = parsed
    // The comparison only for a window the API takes (else its answer says why).
    const [metrics, comparison] = await Promise.all([
      doraMetricsOf(sql, owner, parsed),
      since && until
        ? doraComparisonOf(sql, owner.workspaceId, environment ? [environment] : production, {
            ...parsed,
            since,
            until,
          })
        : undefined,
    ])
    return { metrics, selection, environments, comparison }
  })
}
