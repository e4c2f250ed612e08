import { exportDeployments } from '@shiplog/db/queries/deployment-export'
import type { DeploymentQueue } from '@shiplog/db/queue'
import type { ListDeploymentsQuery, PageCursor } from '@shiplog/schema'
import { csvResponse, refusePaging } from '../../kernel/csv.ts'
import type { ReadSlots } from '../../kernel/read-slots.ts'
import type { ReadClients, Workspace } from '../../kernel/workspace.ts'
import { DEPLOYMENT_CSV_HEADER, deploymentCsvLines } from './csv.ts'
import { resolvedFiltersOf } from './service.ts'

/** How an export reads: 1,000 rows at a time, for at most 15 minutes. */
export const EXPORT_OPTIONS = { chunk: 500, timeoutMs: 15 * 60_000 }

/**
 * Every deployment matching `query` as CSV (`Accept: text/csv`), streamed: recorded ones through
 * a cursor on the replica, queued and failed ones page by page from the queue. Not a page, so
 * `limit` and `cursor` are refused. The key's read slot is held until the last byte is sent.
 */
export async function exportWorkspaceDeployments(
  clients: ReadClients,
  queue: DeploymentQueue,
  reads: ReadSlots,
  owner: Workspace,
  /** Whose read slots the export holds: the key's, or the person's. */
  slot: string,
  query: ListDeploymentsQuery,
  given: URLSearchParams,
  filename = 'deployments.csv',
): Promise<Response> {
  refusePaging(given, 'deployment')
  const filters = await resolvedFiltersOf(clients.replica, owner, query)
  const status = query.status ?? 'recorded'
  const produce = async (push: (text: string) => Promise<void>) => {
    await push(DEPLOYMENT_CSV_HEADER)
    if (status === 'recorded') {
      await exportDeployments(clients.replica, filters, EXPORT_OPTIONS, (rows) =>
        push(deploymentCsvLines(rows.map((row) => ({ ...row, status: 'recorded' as const })))),
      )
      return
    }
    let after: PageCursor | undefined
    do {
      const page = await queue.list({
        ...filters,
        status,
        limit: 100,
        ...(after === undefined ? {} : { after }),
      })
      await push(deploymentCsvLines(page.statuses))
      after = page.next ?? undefined
    } while (after !== undefined)
  }
  return csvResponse(reads, slot, filename, produce)
}
