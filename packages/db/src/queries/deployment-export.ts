import { type DeploymentRecord, isoFromPostgres } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import {
  applicationIds,
  type DeploymentFilters,
  environmentCondition,
  rowConditions,
  storedChangeType,
} from './deployment-filters.ts'
import { type ExportOptions, exportRows } from './export-rows.ts'

const timesAsIso = (row: DeploymentRecord): DeploymentRecord => {
  row.deployedAt = isoFromPostgres(row.deployedAt)
  row.receivedAt = isoFromPostgres(row.receivedAt)
  if (row.recordedAt !== null) row.recordedAt = isoFromPostgres(row.recordedAt)
  return row
}

/**
 * Every recorded deployment matching the filters (no page, no cursor), newest `deployedAt`
 * first, `chunk` rows at a time (exportRows: one snapshot, the next chunk read while `each`
 * works on this one). The record of a list's item, its change type as stored with the DORA
 * facts (the same answer as a page's, without a probe per row), its times printed by Postgres
 * and rendered here.
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
  await exportRows<DeploymentRecord>(
    sql,
    options,
    (tx) => tx`
      select d.id, r.full_name as "repositoryFullName", e.name as environment, a.name as app,
             d.version, d.commit_hash as "commitHash", d.description, d.author,
             d.deployed_at::text as "deployedAt", d.monorepo_path as "monorepoPath",
             d.received_at::text as "receivedAt", d.source, d.recorded_at::text as "recordedAt",
             ${storedChangeType(sql)} as "changeType"
        from deployments d
        join applications a on a.id = d.application_id
        join repositories r on r.id = a.repository_id
        join environments e on e.id = d.environment_id
       where d.workspace_id = ${query.workspaceId}
         ${environmentCondition(sql, query, sql`d.environment_id`)}
         ${byApplication ? sql`and d.application_id in (${applicationIds(sql, query)})` : sql``}
         ${rowConditions(sql, query)}
       order by d.deployed_at desc, d.id desc`,
    (rows) => each(rows.map(timesAsIso)),
  )
}
