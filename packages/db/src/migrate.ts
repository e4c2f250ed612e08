import { createSql } from './client.ts'
import { applyMigrations, type MigrationRun } from './migrations.ts'
import { createBoss, ensureQueues, type RetryPolicy, stopQuietly } from './queue.ts'

/**
 * The migrate step (`bun run migrate`, the rollout's Job): brings a database up to this build,
 * with Shiplog's numbered SQL migrations and current-state SQL, pg-boss's schema and the
 * deployment queues. A given retry policy is applied to the queues; without one, existing queues
 * keep theirs. Idempotent and safe to run from several processes at once.
 */
export async function migrateDatabase(url: string, policy?: RetryPolicy): Promise<MigrationRun> {
  const sql = createSql(url, { applicationName: 'shiplog-migrate', maxConnections: 1 })
  const boss = createBoss(url, 'migrate', 'shiplog-migrate-queue')
  // What start and ensureQueues fail with is thrown; this is pg-boss's background noise.
  boss.on('error', (error) => console.error(`pg-boss: ${String(error)}`))
  try {
    const applied = await applyMigrations(sql)
    await boss.start()
    await ensureQueues(boss, policy)
    return applied
  } finally {
    await stopQuietly(boss)
    await sql.end({ timeout: 5 })
  }
}
