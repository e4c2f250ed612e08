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

/** Anything that holds a value per connection state: a Prometheus gauge, for one. */
export interface ConnectionGauge {
  reset(): void
  set(labels: { state: string }, value: number): void
}

/**
 * Sets the gauge to this process's connections by state; left empty when Postgres cannot be
 * asked (the scrape still answers, and the empty gauge shows the outage).
 */
export async function reportConnections(sql: Sql, applicationName: string, gauge: ConnectionGauge) {
  gauge.reset()
  const byState = await connectionsByState(sql, applicationName).catch(() => ({}))
  for (const [state, count] of Object.entries(byState)) gauge.set({ state }, count)
}
