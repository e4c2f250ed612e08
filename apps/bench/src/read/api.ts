import { randomPort } from '@shiplog/db/testing'
import { type BenchProcess, startProcess, waitUntilReady } from '../processes.ts'
import { type ReadClient, readClient } from './client.ts'
import type { BenchDatabase } from './database.ts'

/** The API process every size is read through, a client with the bench key, and its pool. */
export interface BenchApi {
  process: BenchProcess
  /** Where it listens, `http://127.0.0.1:<port>`. */
  base: string
  client: ReadClient
  /** Postgres connections the API's pool holds now; each prepares statements of its own. */
  countConnections(): Promise<number>
}

/**
 * Starts the real API (`apps/api/src/main.ts`, default settings, request logs on) against the
 * database, once for the whole run: the code it loads at start is the code every size measures,
 * even while the tree changes under a run of a quarter of an hour.
 */
export async function startApi(database: BenchDatabase): Promise<BenchApi> {
  const port = randomPort()
  const api = startProcess('apps/api/src/main.ts', {
    DATABASE_URL: database.url,
    PORT: String(port),
    // Any free port, so a run never fails on a busy 9091; nothing scrapes it.
    METRICS_PORT: '0',
  })
  const base = `http://127.0.0.1:${port}`
  try {
    await waitUntilReady(`${base}/readyz`, api)
  } catch (error) {
    await api.stop()
    throw error
  }
  return {
    process: api,
    base,
    client: readClient(base, database.key),
    async countConnections() {
      const [row] = await database.sql<{ count: number }[]>`
        select count(*)::int as count from pg_stat_activity
         where datname = current_database() and application_name like 'shiplog-api %'`
      return row?.count ?? 0
    },
  }
}
