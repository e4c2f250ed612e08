import type { Sql } from './client.ts'
import { connectionsByState } from './queries/connections.ts'

/**
 * The pool gauge every process exports, defined once so the API and the worker report the same
 * metric: `new Gauge({ ...POOL_GAUGE, registers })`.
 */
export const POOL_GAUGE = {
  name: 'shiplog_db_connections',
  help: "This process's Postgres connections by state (pool use).",
  labelNames: ['state'] as const,
}

/** Anything that holds a value per connection state: a Prometheus gauge, for one. */
export interface PoolGauge {
  reset(): void
  set(labels: { state: string }, value: number): void
}

/**
 * Sets the gauge to this process's connections by state; left empty when Postgres cannot be
 * asked (the scrape still answers, and the empty gauge shows the outage).
 */
export async function reportPoolConnections(
  sql: Sql,
  applicationName: string,
  gauge: PoolGauge,
): Promise<void> {
  gauge.reset()
  const byState = await connectionsByState(sql, applicationName).catch(() => ({}))
  for (const [state, count] of Object.entries(byState)) gauge.set({ state }, count)
}
