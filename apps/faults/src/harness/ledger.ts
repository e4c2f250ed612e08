import { expect } from 'bun:test'
import type { Sql } from '@shiplog/db/client'
import type { Sent } from './driver.ts'

/** The reckoning the reliability report quotes for every scenario. */
export interface Ledger {
  sent: number
  accepted: number
  rows: number
  duplicates: number
  lost: number
  /** Rows for requests that were not answered 202 (a 503 whose commit went through after all). */
  unacknowledged: number
  statuses: Record<string, number>
}

/**
 * Matches every request to the rows recorded for its version: each 202 must have exactly one
 * row (lost: none; duplicates: more than one), and a request not answered 202 should have none.
 */
export async function reconcile(sql: Sql, sent: Sent[]): Promise<Ledger> {
  const rows = await sql<{ version: string; count: number }[]>`
    select version, count(*)::int as count from deployments group by version`
  const byVersion = new Map(rows.map((row) => [row.version, row.count]))
  const statuses: Record<string, number> = {}
  let accepted = 0
  let duplicates = 0
  let lost = 0
  let unacknowledged = 0
  for (const { version, status } of sent) {
    statuses[status] = (statuses[status] ?? 0) + 1
    const recorded = byVersion.get(version) ?? 0
    if (status === 202) {
      accepted++
      if (recorded === 0) lost++
      if (recorded > 1) duplicates += recorded - 1
    } else if (recorded > 0) {
      unacknowledged++
    }
  }
  return {
    sent: sent.length,
    accepted,
    rows: rows.reduce((sum, row) => sum + row.count, 0),
    duplicates,
    lost,
    unacknowledged,
    statuses,
  }
}

/** Every 202 of the ledger recorded exactly once: none lost, none twice. */
export function expectEachAcceptedOnce(ledger: Ledger): void {
  expect(ledger.lost).toBe(0)
  expect(ledger.duplicates).toBe(0)
}
