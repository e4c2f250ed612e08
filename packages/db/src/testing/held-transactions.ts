import type { Sql, Tx } from '../client.ts'

/** A transaction that does `work`, then stays open until `release` is called. */
export function heldOpen(sql: Sql, work: (tx: Tx) => Promise<unknown>) {
  const started = Promise.withResolvers<void>()
  const released = Promise.withResolvers<void>()
  const done = sql.begin(async (tx) => {
    await work(tx)
    started.resolve()
    await released.promise
  })
  return { started: started.promise, done, release: () => released.resolve() }
}

/** Resolves once some transaction of this database waits on a lock, or `work` (if given) is done. */
export async function untilWaitingOnLock(sql: Sql, work?: Promise<unknown>): Promise<void> {
  let done = false
  work?.then(
    () => (done = true),
    () => (done = true),
  )
  for (;;) {
    const [waiting] = await sql<{ count: number }[]>`
      select count(*)::int as count from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`
    if (done || (waiting?.count ?? 0) > 0) return
    await Bun.sleep(5)
  }
}
