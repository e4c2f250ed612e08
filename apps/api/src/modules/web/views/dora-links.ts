// Where each DORA figure's rows are listed: the deployment list and the commit list with the
// filters the API documents as counting exactly what the figure counts, over the same window.
import type { DoraMetrics } from '@shiplog/schema'
import type { DoraSelection } from './dora-selection.ts'

/** What a figure counted: the environments (one, or the production ones) and the window. */
export interface CountedScope {
  /** One environment named, or every production environment (`production=true`). */
  environments: string[]
  allProduction: boolean
  since: string
  until: string
  app?: string
  repository?: string
}

/** The scope of the figures `metrics` answers for `selection`. */
export function countedScope(metrics: DoraMetrics, selection: DoraSelection): CountedScope {
  return {
    environments: metrics.environments ?? [metrics.environment],
    allProduction: selection.environment === undefined && metrics.environments !== undefined,
    since: metrics.since,
    until: metrics.until,
    ...(selection.app ? { app: selection.app } : {}),
    ...(selection.repository ? { repository: selection.repository } : {}),
  }
}

function withScope(path: string, scope: CountedScope, environment: string | undefined, extra = {}) {
  const query = new URLSearchParams({
    ...(environment === undefined ? { production: 'true' } : { environment }),
    ...(scope.app ? { app: scope.app } : {}),
    ...(scope.repository ? { repository: scope.repository } : {}),
    since: scope.since,
    until: scope.until,
    ...extra,
  })
  return `${path}?${query}`
}

// One environment named, or every production one at once.
const counted = (scope: CountedScope) => (scope.allProduction ? undefined : scope.environments[0])

/** The deployment list of a figure, with `filters`. */
export function deploymentList(scope: CountedScope, filters: Record<string, string> = {}): string {
  return withScope('/ui/deployments', scope, counted(scope), filters)
}

/** The commit list behind change lead time. */
export function commitList(scope: CountedScope): string {
  return withScope('/ui/commits', scope, counted(scope))
}

/** The filters of each deployment list a figure links to. */
export const LIST_FILTERS = {
  deployments: {},
  changes: { changeType: 'change' },
  failedChanges: { changeType: 'change', failed: 'true' },
  failed: { failed: 'true' },
  rework: { rework: 'true' },
} as const

/** The series the page draws as CSV: the same window, buckets and scope. */
export function seriesCsv(scope: CountedScope, bucket: 'day' | 'week'): string {
  const environment = counted(scope)
  const query = new URLSearchParams({
    ...(environment === undefined ? {} : { environment }),
    ...(scope.app ? { app: scope.app } : {}),
    ...(scope.repository ? { repository: scope.repository } : {}),
    since: scope.since,
    until: scope.until,
    bucket,
  })
  return `/ui/dora.csv?${query}`
}
