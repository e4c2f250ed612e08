import type { Sql } from '../client.ts'
import { type WindowMetrics, windowMetricsOf } from './figures.ts'
import { doraWindowRows } from './window-rows.ts'
import type { DoraQuery } from './window-scope.ts'

/**
 * The five DORA keys of an environment over a window and per bucket (GET /v1/metrics/dora), or
 * undefined when the workspace has no such environment: the rows of window-rows.ts, mapped to
 * the keys by figures.ts.
 */
export async function doraMetrics(sql: Sql, query: DoraQuery): Promise<WindowMetrics | undefined> {
  const rows = await doraWindowRows(sql, query)
  return rows && windowMetricsOf(rows, query.since, query.until)
}
