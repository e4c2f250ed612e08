import { createSql } from '@shiplog/db/client'
import { ensureWorkspace } from '@shiplog/db/queries/workspaces'
import { DEFAULT_RETRY_POLICY, insertIntoInbox } from '@shiplog/db/queue'
import { createTestDatabase } from '@shiplog/db/testing'
import { deploymentJobs } from './fixtures.ts'
import { startProcess } from './processes.ts'

/** What draining a pre-filled queue measured. */
export interface DrainResult {
  jobs: number
  seconds: number
  perSecond: number
  recorded: number
}

/**
 * Fills a fresh inbox with `jobs` deployments, then starts a worker process with `workerEnv` and
 * times how long until every one is recorded.
 */
export async function measureDrain(
  jobs: number,
  workerEnv: Record<string, string>,
): Promise<DrainResult> {
  const database = await createTestDatabase(DEFAULT_RETRY_POLICY)
  const sql = createSql(database.url, { applicationName: 'shiplog-bench', maxConnections: 2 })
  try {
    const { id: workspaceId } = await ensureWorkspace(sql, 'bench')
    for (let offset = 0; offset < jobs; offset += 1_000) {
      const chunk = deploymentJobs(Math.min(1_000, jobs - offset), workspaceId, offset)
      await insertIntoInbox(sql, chunk)
    }
    const startedAt = performance.now()
    const worker = startProcess('apps/worker/src/main.ts', {
      DATABASE_URL: database.url,
      ...workerEnv,
    })
    let recorded = 0
    while (recorded < jobs) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      const [row] = await sql<{ count: number }[]>`select count(*)::int as count from deployments`
      recorded = row?.count ?? 0
      if (performance.now() - startedAt > 300_000) break
    }
    const seconds = (performance.now() - startedAt) / 1000
    await worker.stop()
    return { jobs, seconds, perSecond: recorded / seconds, recorded }
  } finally {
    await sql.end()
    await database.drop()
  }
}
