import { createSql, type Sql } from '@shiplog/db/client'
import { currentSqlApplied } from '@shiplog/db/current-sql'
import { resolvePostgres } from '@shiplog/db/embedded'
import { migrateDatabase } from '@shiplog/db/migrate'
import { appliedMigrationVersion, latestMigrationVersion } from '@shiplog/db/migrations'
import type { CliEnv } from './env.ts'

/** A ready database for one CLI command, and how to let go of it. */
export interface CliDatabase {
  url: string
  sql: Sql
  close(): Promise<void>
}

/** The retry policy the migration step applies to the deployment queue. */
export function retryPolicyOf(env: CliEnv) {
  return {
    retryLimit: env.JOB_RETRY_LIMIT,
    retryDelaySeconds: env.JOB_RETRY_DELAY_SECONDS,
    retryDelayMaxSeconds: env.JOB_RETRY_DELAY_MAX_SECONDS,
  }
}

/**
 * Connects to the database a command works on. The embedded Postgres is started if needed and
 * migrated on the spot; a `DATABASE_URL` database must already be at this build's migration,
 * because migrating a shared database is the rollout's job (`bun run migrate`), not a side effect.
 */
export async function openDatabase(env: CliEnv): Promise<CliDatabase> {
  const server = await resolvePostgres(env.DATABASE_URL)
  if (!env.DATABASE_URL) await migrateDatabase(server.url)
  const sql = createSql(server.url, { applicationName: 'shiplog-cli', maxConnections: 2 })
  if (env.DATABASE_URL) {
    const [applied, latest, functions] = await Promise.all([
      appliedMigrationVersion(sql),
      latestMigrationVersion(),
      currentSqlApplied(sql),
    ])
    if (applied !== latest || !functions) {
      await sql.end()
      throw new Error(
        applied !== latest
          ? `the database is at migration ${applied} and this build expects ${latest}: run bun run migrate first`
          : "the database lacks this build's functions, triggers and views: run bun run migrate first",
      )
    }
  }
  return {
    url: server.url,
    sql,
    async close() {
      await sql.end({ timeout: 5 })
      await server.stop()
    },
  }
}
