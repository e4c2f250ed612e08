import type { DeploymentRecord } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import {
  applicationIds,
  type DeploymentFilters,
  environmentCondition,
  rowConditions,
} from './deployment-filters.ts'
import { recordColumns } from './deployments.ts'

/** What an export reads, and how long its one transaction may last. */
export interface ExportOptions {
  /** Rows fetched at a time: what memory holds, whatever the total. */
  chunk: number
  /** The export's statement timeout: long enough for millions of rows, bounded all the same. */
  timeoutMs: number
}

/**
 * Every recorded deployment matching the filters (no page, no cursor), newest `deployedAt`
 * first, through a postgres.js cursor: `each` gets `chunk` rows at a time and the next are
 * fetched once it resolves, so a slow reader holds one chunk, not the result. One read-only
 * transaction on one connection, under its own statement timeout.
 */
export async function exportDeployments(
  sql: Sql,
  filters: Omit<DeploymentFilters, 'limit' | 'after'>,
  options: ExportOptions,
  each: (rows: DeploymentRecord[]) => Promise<void>,
): Promise<void> {
  const query = { ...filters, limit: 0 }
  const byApplication = query.appKey !== undefined || query.repositoryKey !== undefined
  // Fragments are built with `sql` and run inside `tx`: postgres.js allows that.
  await sql.begin('read only', async (tx) => {
    await tx`select set_config('statement_timeout', ${String(options.timeoutMs)}, true)`
    const rows = tx<DeploymentRecord[]>`
      select ${recordColumns(sql, 'stored')}
        from deployments d
        join applications a on a.id = d.application_id
        join repositories r on r.id = a.repository_id
        join environments e on e.id = d.environment_id
       where d.workspace_id = ${query.workspaceId}
         ${environmentCondition(sql, query, sql`d.environment_id`)}
         ${byApplication ? sql`and d.application_id in (${applicationIds(sql, query)})` : sql``}
         ${rowConditions(sql, query)}
       order by d.deployed_at desc, d.id desc`
    for await (const chunk of rows.cursor(options.chunk)) await each(chunk)
  })
}
