import type { Sql } from '@shiplog/db/client'
import type { DeploymentQueue } from '@shiplog/db/queue'
import { inSnapshot } from '@shiplog/db/read/snapshot'
import type { ReadClients } from '../../kernel/workspace.ts'
import type { WebDeps } from './deps.ts'

/** What a page's reads see. */
export interface PageReads {
  /** The snapshot: one connection, one moment of the database the page reads. */
  sql: Sql
  /**
   * For the services that read both: the snapshot as the replica, and the primary, which alone
   * holds a deployment recorded a moment ago, and the audit trail.
   */
  clients: ReadClients
  /** The queue, which alone knows a deployment not recorded yet. */
  queue: DeploymentQueue
}

/**
 * Which database a page reads: the replica (recorded deployments and their figures), or the
 * primary, for what the dashboard writes and shows again at once (incidents, keys).
 */
export type PageDatabase = 'replica' | 'primary'

/** Runs `read` in one snapshot of `database`, in the session's read slot. */
export type PageSnapshot = <T>(
  read: (reads: PageReads) => Promise<T>,
  database?: PageDatabase,
) => Promise<T>

/**
 * A page's reads, for the session whose read slots are `slot`: its parts agree with each other,
 * and they take one connection (postgres.js pipelines the queries sent together) and one slot,
 * as the API's reads do, however many queries the page sends.
 */
export function pageSnapshot(deps: WebDeps, slot: string): PageSnapshot {
  return (read, database = 'replica') => {
    const pool = database === 'primary' ? deps.sql : deps.readSql
    return deps.reads.run(slot, () =>
      inSnapshot(pool, (tx) => {
        // The services take a pool; handed the snapshot instead, every query they send runs in
        // it, and a snapshot of their own joins it (inSnapshot).
        const sql = tx as unknown as Sql
        const primary = database === 'primary' ? sql : deps.sql
        return read({ sql, clients: { replica: sql, primary }, queue: deps.queue })
      }),
    )
  }
}
