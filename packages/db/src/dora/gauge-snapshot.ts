// The DORA gauges' shared cache (migration 0037): one worker replica at a time computes the
// figures (gauge-figures.ts) and stores them; every replica reads what was stored. A scrape reads
// neither: the worker holds the last read in memory.

import type { Sql } from '../client.ts'
import { type DoraGaugeFigures, doraGaugeFigures } from './gauge-figures.ts'

const SNAPSHOT = 'dora_gauges'
// pg_try_advisory_xact_lock's key: one computation at a time across replicas.
const COMPUTING_LOCK = 4_702_470_001

/** How often the figures are computed, and how many applications get their own. */
export interface GaugeSnapshotSettings {
  intervalMs: number
  topApplications: number
}

/**
 * Computes and stores the figures unless another replica is computing them or stored them less
 * than half an interval ago; says whether it computed. One transaction, one snapshot: the lock,
 * the check, the figures and the write.
 */
export async function computeDoraGaugesIfDue(
  sql: Sql,
  settings: GaugeSnapshotSettings,
  now: Date = new Date(),
): Promise<boolean> {
  return (await sql.begin('isolation level repeatable read', async (tx) => {
    const [lock] = await tx<{ held: boolean }[]>`
      select pg_try_advisory_xact_lock(${COMPUTING_LOCK}) as held`
    if (!lock?.held) return false
    const [stored] = await tx<{ fresh: boolean }[]>`
      select computed_at > ${now.toISOString()}::timestamptz - ${settings.intervalMs / 2} * interval '1 millisecond' as fresh
        from metric_snapshots where name = ${SNAPSHOT}`
    if (stored?.fresh) return false
    // To the second: a window a person can ask /v1/metrics/dora for, with since and until.
    const until = BigInt(Math.floor(now.getTime() / 1000)) * 1_000_000n
    const figures = await doraGaugeFigures(tx, {
      until,
      topApplications: settings.topApplications,
    })
    await tx`
      insert into metric_snapshots (name, computed_at, body)
      values (${SNAPSHOT}, ${figures.until}::timestamptz, ${tx.json(figures as never)})
      on conflict (name) do update set computed_at = excluded.computed_at, body = excluded.body`
    return true
  })) as boolean
}

/** The figures last stored, or undefined before the first computation. */
export async function storedDoraGauges(sql: Sql): Promise<DoraGaugeFigures | undefined> {
  const [row] = await sql<{ body: DoraGaugeFigures }[]>`
    select body from metric_snapshots where name = ${SNAPSHOT}`
  return row?.body
}
