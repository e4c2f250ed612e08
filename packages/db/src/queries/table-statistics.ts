import type { Sql } from '../client.ts'

// The tables a batch writes or reads by plan: their statistics decide whether Postgres walks an
// index for a batch's few hundred ids or scans a table of millions.
const WRITTEN = [
  'deployments',
  'deployment_cells',
  'deployment_counts',
  'deployment_dora_facts',
  'deployment_aliases',
  'applications',
  'repositories',
  'environments',
]

/**
 * Analyzes the tables the worker writes whose statistics fell behind: more rows changed since
 * their last analyze than a tenth of the table and a thousand, the point autovacuum would have
 * analyzed them at. Where autovacuum runs it has done so first and this finds nothing; where it
 * is off or late, plans chosen for an empty table would otherwise scan the grown one at every
 * batch. Resolves with the tables analyzed.
 */
export async function analyzeStaleTables(sql: Sql): Promise<string[]> {
  const stale = await sql<{ name: string }[]>`
    select relname as name from pg_stat_user_tables
     where schemaname = 'public' and relname = any(${WRITTEN}::text[])
       and n_mod_since_analyze > 1000 + 0.1 * greatest(n_live_tup, 0)`
  for (const { name } of stale) await sql`analyze ${sql(name)}`
  return stale.map(({ name }) => name)
}
