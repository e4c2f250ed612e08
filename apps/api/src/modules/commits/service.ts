import type { Sql } from '@shiplog/db/client'
import {
  exportFirstDeliveries,
  type FirstDeliveryQuery,
  type FirstDeliveryRow,
  listFirstDeliveries,
} from '@shiplog/db/dora/first-deliveries'
import { environmentIds, productionEnvironments } from '@shiplog/db/queries/catalog'
import { applicationIds } from '@shiplog/db/queries/deployment-filters'
import {
  commitUrl,
  encodeCommitCursor,
  type FirstDelivery,
  type FirstDeliveryPage,
  type ListCommitsQuery,
  nameKey,
} from '@shiplog/schema'
import { csvLines } from '../../kernel/csv.ts'
import type { ReadClients, Workspace } from '../../kernel/workspace.ts'
import { EXPORT_OPTIONS } from '../deployments/export.ts'

/** The columns of a commits CSV, in order: the fields of a list's items. */
export const COMMIT_CSV_COLUMNS = [
  'sha',
  'deploymentId',
  'app',
  'environment',
  'deployedAt',
  'committedAt',
  'leadTimeSeconds',
  'subject',
  'author',
  'url',
] as const

/** The header line of a commits CSV. */
export const COMMIT_CSV_HEADER = `${COMMIT_CSV_COLUMNS.join(',')}\r\n`

// Pages of the list, each a statement of its own: bigger ones cost fewer statements, and one of
// 5,000 still answers in a fraction of a second at millions of deliveries.
const COMMIT_EXPORT_OPTIONS = { ...EXPORT_OPTIONS, chunk: 5_000 }

const key = (value: string | undefined) => (value === undefined ? undefined : nameKey(value))

/**
 * What the database lists from a query: the environments it names (one, the production ones,
 * both: their intersection, or all of the workspace's), the applications, the window.
 */
async function deliveryQuery(
  sql: Sql,
  owner: Workspace,
  query: ListCommitsQuery,
): Promise<FirstDeliveryQuery> {
  let keys = query.environment === undefined ? undefined : [nameKey(query.environment)]
  if (query.production !== undefined) {
    const production = (
      await productionEnvironments(sql, owner.workspaceId, query.production === 'true')
    ).map(nameKey)
    keys = keys === undefined ? production : production.filter((each) => keys?.includes(each))
  }
  const filters = {
    workspaceId: owner.workspaceId,
    appKey: key(query.app),
    repositoryKey: key(query.repository),
  }
  const byApplication = filters.appKey !== undefined || filters.repositoryKey !== undefined
  return {
    workspaceId: owner.workspaceId,
    environmentIds: keys?.length === 0 ? [] : await environmentIds(sql, owner.workspaceId, keys),
    applications: byApplication ? applicationIds(sql, { ...filters, limit: 0 }) : undefined,
    since: query.since?.iso,
    until: query.until?.iso,
  }
}

const deliveryOf = ({ webUrl, deployedAtMicros: _, ...row }: FirstDeliveryRow): FirstDelivery => ({
  ...row,
  url: webUrl === null ? null : commitUrl(webUrl, row.sha),
})

/** `GET /v1/commits`: a page of the first deliveries change lead time counted. */
export async function listWorkspaceCommits(
  { replica }: ReadClients,
  owner: Workspace,
  query: ListCommitsQuery,
): Promise<FirstDeliveryPage> {
  const limit = query.limit ?? 50
  const rows = await listFirstDeliveries(
    replica,
    { ...(await deliveryQuery(replica, owner, query)), after: query.cursor },
    limit,
  )
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    data: page.map(deliveryOf),
    nextCursor:
      rows.length > limit && last
        ? encodeCommitCursor({
            deployedAtMicros: BigInt(last.deployedAtMicros),
            id: last.deploymentId,
            sha: last.sha,
          })
        : null,
  }
}

/** Every first delivery of the query as CSV lines, `push`ed a chunk at a time. */
export async function exportWorkspaceCommits(
  { replica }: ReadClients,
  owner: Workspace,
  query: ListCommitsQuery,
  push: (text: string) => Promise<void>,
): Promise<void> {
  const deliveries = await deliveryQuery(replica, owner, query)
  await push(COMMIT_CSV_HEADER)
  await exportFirstDeliveries(replica, deliveries, COMMIT_EXPORT_OPTIONS, (rows) =>
    push(csvLines(COMMIT_CSV_COLUMNS, rows.map(deliveryOf))),
  )
}
