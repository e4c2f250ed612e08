import { createSql } from './client.ts'
import { applyMigrations, type MigrationRun } from './migrations.ts'
import { createEngine, ensureQueues, type RetryPolicy, stopEngine } from './queue/engine.ts'

/**
 * The migrate step (`bun run migrate`, the rollout's Job): brings a database up to this build,
 * with Shiplog's numbered SQL migrations and current-state SQL, the queue engine's schema and its
 * queues. A given retry policy is applied to the queues; without one, existing queues
 * keep theirs. Idempotent and safe to run from several processes at once.
 */
export async function migrateDatabase(url: string, policy?: RetryPolicy): Promise<MigrationRun> {
  const sql = createSql(url, { applicationName: 'shiplog-migrate', maxConnections: 1 })
  const engine = createEngine(url, 'migrate', 'shiplog-migrate-queue')
  // What start and ensureQueues fail with is thrown; this is the engine's background noise.
  engine.on('error', (error) => console.error(`queue: ${String(error)}`))
  try {
    const applied = await applyMigrations(sql)
    await engine.start()
    await ensureQueues(engine, policy)
    return applied
  } finally {
    await stopEngine(engine)
    await sql.end({ timeout: 5 })
  }
}
