import type postgres from 'postgres'
import type { Sql, Tx } from '../client.ts'

/** What an export reads, and how long its one transaction may last. */
export interface ExportOptions {
  /** Rows fetched at a time: what memory holds, whatever the total. */
  chunk: number
  /** The export's statement timeout: long enough for millions of rows, bounded all the same. */
  timeoutMs: number
}

// A macrotask: postgres.js sends the next fetch in a microtask once the cursor's callback
// resolves; waiting a turn lets that fetch leave before `each` takes the thread.
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * Every row of `statement` (no page, no cursor of the caller's), `chunk` rows at a time, in one
 * read-only transaction on one connection under its own statement timeout, with `timezone` UTC
 * and `datestyle` ISO (so a `timestamptz::text` suits isoFromPostgres, far cheaper than iso_utc
 * on millions of rows). Postgres fetches the next chunk while `each` works on this one, so the
 * two overlap; memory holds two chunks, however many rows there are, and a slow `each` holds
 * the fetching back.
 */
export async function exportRows<T extends object>(
  sql: Sql,
  options: ExportOptions,
  statement: (tx: Tx) => postgres.PendingQuery<T[]>,
  each: (rows: T[]) => Promise<void>,
): Promise<void> {
  await sql.begin('read only', async (tx) => {
    await tx`select set_config('statement_timeout', ${String(options.timeoutMs)}, true),
                    set_config('timezone', 'UTC', true), set_config('datestyle', 'ISO, YMD', true)`
    let handed: Promise<void> = Promise.resolve()
    await statement(tx).cursor(options.chunk, (rows) => {
      // The fetch after this chunk waits for the one before it to be handed over, not for this.
      const before = handed
      handed = before.then(nextTurn).then(() => each(rows as unknown as T[]))
      // Its failure (the reader gone) is met by the next chunk's wait, or by the last await.
      handed.catch(() => {})
      return before
    })
    await handed
  })
}
