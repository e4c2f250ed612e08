import type { PageCursor } from '@shiplog/schema'
import type { Sql } from '../client.ts'

// Keyset pagination, newest first, as every list pages: the query asks for one row more than
// the page, and the cursor names the page's last row by its instant and id.

/** A cursor's instant as a timestamptz expression (microseconds since the epoch). */
export const instantAt = (sql: Sql, micros: bigint) =>
  sql`(timestamptz 'epoch' + ${String(micros)}::bigint * interval '1 microsecond')`

/**
 * Splits the `limit + 1` rows a list query read into the page and the cursor after its last
 * row, `null` when no row followed it.
 */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  cursorOf: (row: Row) => PageCursor,
): { page: Row[]; next: PageCursor | null } {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return { page, next: rows.length > limit && last ? cursorOf(last) : null }
}
