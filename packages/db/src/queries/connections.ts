import type { Sql } from '../client.ts'

/** This process's Postgres connections by state (active, idle, idle in transaction…). */
export async function connectionsByState(
  sql: Sql,
  applicationName: string,
): Promise<Record<string, number>> {
  const rows = await sql<{ state: string | null; count: number }[]>`
    select state, count(*)::int as count from pg_stat_activity
     where application_name = ${applicationName} group by state`
  return Object.fromEntries(rows.map((row) => [row.state ?? 'unknown', row.count]))
}
