// What the DORA page was asked for, and its URL with some of that changed: the page keeps every
// choice in its query, so a sort, a preset or a link to another application is a plain link.

/** The window presets, and how the page names them. */
export const RANGES = ['7d', '30d', '90d', 'quarter', 'previous-quarter'] as const
export type DoraRange = (typeof RANGES)[number]
export const RANGE_LABELS: Record<DoraRange, string> = {
  '7d': 'last 7 days',
  '30d': 'last 30 days',
  '90d': 'last 90 days',
  quarter: 'this quarter',
  'previous-quarter': 'last quarter',
}

/** The columns the applications table sorts by. */
export const SORTS = ['app', 'frequency', 'lead-time', 'fail-rate', 'recovery', 'rework'] as const
export type DoraSort = (typeof SORTS)[number]

/** The window the page asks for: an environment, a preset, optional app or repository. */
export interface DoraSelection {
  environment?: string
  range: DoraRange
  app?: string
  repository?: string
  /** An exact window (a date or RFC 3339), as a shared link carries it; else the preset. */
  since?: string
  until?: string
  /** How the applications table is sorted, and whether it lists every application. */
  sort: DoraSort
  order: 'asc' | 'desc'
  allApplications: boolean
}

/** Names sort up from A; figures down from the highest (the busiest, slowest, most failing). */
export const defaultOrder = (sort: DoraSort): 'asc' | 'desc' => (sort === 'app' ? 'asc' : 'desc')

/** The page's choices from its query; unknown values fall back to the defaults. */
export function selectionOf(
  query: URLSearchParams,
  environment: string | undefined,
): DoraSelection {
  const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
    (values as readonly string[]).includes(value ?? '') ? (value as T) : fallback
  const sort = oneOf(SORTS, query.get('sort'), 'frequency')
  const text = (name: string) => (query.get(name) ? { [name]: query.get(name) as string } : {})
  return {
    range: oneOf(RANGES, query.get('range'), '90d'),
    ...(environment === undefined ? {} : { environment }),
    ...text('app'),
    ...text('repository'),
    ...text('since'),
    ...text('until'),
    sort,
    order: oneOf(['asc', 'desc'] as const, query.get('order'), defaultOrder(sort)),
    allApplications: query.get('applications') === 'all',
  }
}

/** The page's URL for `selection` with `changes`, defaults left out. */
export function doraUrl(selection: DoraSelection, changes: Partial<DoraSelection> = {}): string {
  const chosen = { ...selection, ...changes }
  const query = new URLSearchParams()
  for (const name of ['environment', 'range', 'app', 'repository', 'since', 'until'] as const) {
    const value = chosen[name]
    if (value) query.set(name, value)
  }
  if (chosen.sort !== 'frequency') query.set('sort', chosen.sort)
  if (chosen.order !== defaultOrder(chosen.sort)) query.set('order', chosen.order)
  if (chosen.allApplications) query.set('applications', 'all')
  return `/ui/dora?${query}`
}
