import type { Queryable, Sql, Tx } from '../client.ts'

// The pool each open snapshot was taken from, for what a pool keeps (application-order.ts).
const poolsOfSnapshots = new WeakMap<Queryable, Sql>()

/**
 * Runs a read of several queries on one connection and one snapshot, so its parts agree with
 * each other (a cell never names an application the same answer lacks). postgres.js pipelines
 * queries issued together inside it; read only, it runs on a streaming replica too. Given a
 * transaction (a dashboard page's snapshot), the read joins it.
 */
export function inSnapshot<T>(sql: Queryable, read: (tx: Tx) => Promise<T>): Promise<T> {
  if (!('begin' in sql)) return read(sql)
  return sql.begin('isolation level repeatable read read only', (tx) => {
    poolsOfSnapshots.set(tx, sql)
    return read(tx)
  }) as Promise<T>
}

/** The pool `sql` queries through: itself, or, for a snapshot, the pool it was taken from. */
export const poolOf = (sql: Queryable): Queryable => poolsOfSnapshots.get(sql) ?? sql
