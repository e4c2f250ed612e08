import type { Sql } from '../client.ts'
import { DEAD_LETTERS, type Engine, RETRIES } from './engine.ts'
import { inboxDepth } from './inbox.ts'

/** How many deployments one store of the queue holds in one state (a gauge's labels and value). */
export interface StoreDepth {
  /** `inbox`, or the engine's queue: `deployments` (retries) or `deployments-dead`. */
  queue: string
  state: 'ready' | 'deferred' | 'active'
  count: number
}

/**
 * What waits in each store: the inbox (first attempts), the retries and the dead letters by
 * state. The engine's counts are its own cached figures; a store it cannot report is left out.
 */
export async function queueDepth(sql: Sql, engine: Engine): Promise<StoreDepth[]> {
  const depths: StoreDepth[] = [{ queue: 'inbox', state: 'ready', count: await inboxDepth(sql) }]
  for (const queue of [RETRIES, DEAD_LETTERS]) {
    const stats = await engine.getQueue(queue).catch(() => null)
    if (!stats) continue
    depths.push(
      { queue, state: 'ready', count: stats.readyCount },
      { queue, state: 'deferred', count: stats.deferredCount },
      { queue, state: 'active', count: stats.activeCount },
    )
  }
  return depths
}

/**
 * Exactly how many deployments are not recorded yet, by where they wait: `inbox` (first
 * attempts), and the retries `created`, `retry` (backing off) and `active` (taken); a store with
 * none is left out, so a drained queue answers `{}`. Dead letters are not counted: they wait for
 * a person (`bun run jobs`). Read-only SQL on the engine's job table, as the listing reads it.
 */
export async function countUnrecorded(sql: Sql): Promise<Record<string, number>> {
  const rows = await sql<{ store: string; count: number }[]>`
    select 'inbox' as store, count(*)::int as count from deployment_inbox
    union all
    select state::text, count(*)::int from pgboss.job
     where name = ${RETRIES} and state <= 'active' group by state`
  return Object.fromEntries(
    rows.filter((row) => row.count > 0).map((row) => [row.store, row.count]),
  )
}

/**
 * Seconds since the oldest deployment not yet recorded was received (its first attempt in the
 * inbox, or a retry), 0 when none waits: what says the worker is behind, whatever the depth.
 * The inbox's oldest is its first id (UUIDv7, in order of arrival), one index step.
 */
export async function oldestWaitingSeconds(sql: Sql): Promise<number> {
  const [row] = await sql<{ seconds: number | null }[]>`
    select extract(epoch from now() - least(
      (select received_at from deployment_inbox order by id limit 1),
      (select min(created_on) from pgboss.job where name = ${RETRIES} and state <= 'active')
    ))::float8 as seconds`
  return Math.max(0, row?.seconds ?? 0)
}
