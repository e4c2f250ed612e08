import { createSql } from './client.ts'
import { type Migration, migrate } from './migrations.ts'
import { createBoss, ensureQueues, type RetryPolicy } from './queue.ts'

/**
 * Brings a database up to this build: Shiplog's migrations, pg-boss's schema and the deployment
 * queues. A given retry policy is applied to the queues; without one, existing queues keep theirs.
 * Idempotent and safe to run from several processes at once.
 */
export async function setUpDatabase(url: string, policy?: RetryPolicy): Promise<Migration[]> {
  const sql = createSql(url, { applicationName: 'shiplog-migrate', maxConnections: 1 })
  const boss = createBoss(url, 'migrate', 'shiplog-migrate-queue')
  const errors: unknown[] = []
  boss.on('error', (error) => errors.push(error))
  try {
    const applied = await migrate(sql)
    await boss.start()
    await ensureQueues(boss, policy)
    return applied
  } finally {
    await boss.stop({ graceful: false, close: true }).catch(() => {})
    await sql.end({ timeout: 5 })
  }
}
