import { createSql, type Sql } from '@shiplog/db/client'
import type { ApiEnv } from './env.ts'
import { ReadSlots } from './kernel/read-slots.ts'

/** Where the read endpoints query, and the slots that bound them. */
export interface ReadPool {
  /** The replica at DATABASE_READ_URL, or the primary's own pool (`sql`) without one. */
  readSql: Sql
  /** Slots of listings, summaries and metrics, which query `readSql` alone. */
  reads: ReadSlots
  /** Slots of receipts, which may also query the primary (see `getDeployment`). */
  receipts: ReadSlots
  /** Closes the replica's connections; nothing to do without a replica. */
  end(): Promise<void>
}

/**
 * The read endpoints' pool: a second postgres.js pool on the streaming replica when
 * DATABASE_READ_URL is set, with DATABASE_POOL_SIZE connections of its own; else the primary's.
 */
export function createReadPool(env: ApiEnv, sql: Sql, applicationName: string): ReadPool {
  const replica = env.DATABASE_READ_URL
    ? createSql(env.DATABASE_READ_URL, {
        applicationName,
        maxConnections: env.DATABASE_POOL_SIZE,
        statementTimeoutMs: env.STATEMENT_TIMEOUT_MS,
        readsOnly: true,
      })
    : undefined
  const slots = (total: number) =>
    new ReadSlots({
      perKey: env.READ_CONCURRENCY_PER_KEY,
      total,
      maxWaitMs: env.STATEMENT_TIMEOUT_MS,
    })
  // Each read holds one connection at a time. On the primary, reads leave two connections free,
  // because writes, key lookups and readiness probes need them. The replica's pool serves reads
  // alone, so all of it is read slots. A receipt can still fall through to the primary (a
  // deployment still queued, or recorded but not replayed yet), so receipts keep the primary's
  // bound, and a crowd of `--wait` pollers cannot take the connections writes need.
  const onPrimary = slots(Math.max(1, env.DATABASE_POOL_SIZE - 2))
  return {
    readSql: replica ?? sql,
    reads: replica ? slots(env.DATABASE_POOL_SIZE) : onPrimary,
    receipts: onPrimary,
    end: async () => {
      await replica?.end({ timeout: 5 })
    },
  }
}
