// The query objects of the client's reads beyond the deployments list, and how any of them
// becomes query parameters.

/** Parameters of `getDoraMetrics`; times as RFC 3339 strings or `Date`s. */
export interface DoraMetricsQuery {
  /** Left out: every production environment of the workspace together (`environments` names them). */
  environment?: string
  app?: string
  repository?: string
  since?: string | Date
  until?: string | Date
  bucket?: 'week' | 'day'
}

/** Filters and paging of `listCommits`; times as RFC 3339 strings or `Date`s. */
export interface ListCommitsQuery {
  environment?: string
  /** true: only the production environments; false: only the others. */
  production?: boolean
  app?: string
  repository?: string
  since?: string | Date
  until?: string | Date
  limit?: number
  cursor?: string
}

/** Filters of `listIncidents`; times as RFC 3339 strings or `Date`s. */
export interface ListIncidentsQuery {
  environment?: string
  app?: string
  status?: 'open' | 'resolved'
  since?: string | Date
  until?: string | Date
  limit?: number
  cursor?: string
}

/**
 * Query parameters from an object: unset values (undefined or null) left out, since the API
 * rejects empty filters; dates as RFC 3339.
 */
export function queryParams(
  values: Record<string, string | number | boolean | Date | null | undefined>,
): URLSearchParams {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue
    params.set(name, value instanceof Date ? value.toISOString() : String(value))
  }
  return params
}
