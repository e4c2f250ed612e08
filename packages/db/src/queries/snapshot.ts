import type { Sql, Tx } from '../client.ts'

/**
 * Runs a read of several queries on one connection and one snapshot, so its parts agree with
 * each other (a cell never names an application the same answer lacks). postgres.js pipelines
 * queries issued together inside it; read only, it runs on a streaming replica too.
 */
export function inSnapshot<T>(sql: Sql, read: (tx: Tx) => Promise<T>): Promise<T> {
  return sql.begin('isolation level repeatable read read only', read) as Promise<T>
}
