import { createSql, type Sql } from '@shiplog/db/client'
import { resolvePostgres } from '@shiplog/db/embedded'
import { setUpDatabase } from '@shiplog/db/setup'
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

/** Connects (starting the embedded Postgres if needed) and brings the schema up to date. */
export async function openDatabase(env: CliEnv): Promise<CliDatabase> {
  const server = await resolvePostgres(env.DATABASE_URL)
  await setUpDatabase(server.url, retryPolicyOf(env))
  const sql = createSql(server.url, { applicationName: 'shiplog-cli', maxConnections: 2 })
  return {
    url: server.url,
    sql,
    async close() {
      await sql.end({ timeout: 5 })
      await server.stop()
    },
  }
}
