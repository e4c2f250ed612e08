import { createSql } from '@shiplog/db/client'
import { resolvePostgres } from '@shiplog/db/embedded'
import { migrateDatabase } from '@shiplog/db/migrate'
import { findRefusedNames } from '@shiplog/db/queries/refused-names'
import { parseCommandArgs, runCommand, UsageError } from './command.ts'
import { retryPolicyOf } from './database.ts'

const USAGE = `Usage:
  bun run migrate       apply migrations and the functions, triggers and views (when they
                        changed), install the queue engine's schema, create its queues and apply the
                        JOB_RETRY_* policy, on DATABASE_URL (else the embedded Postgres)
  bun run migrate -h    show this help`

/** Names stored before the names rule that it refuses: counted here, listed by db:verify. */
async function reportRefusedNames(url: string): Promise<void> {
  const sql = createSql(url, { applicationName: 'shiplog-migrate', maxConnections: 1 })
  try {
    const refused = await findRefusedNames(sql)
    if (refused.length > 0) {
      console.log(
        `${refused.length} stored names break the names rule and are kept as they are: bun run db:verify lists them.`,
      )
    }
  } finally {
    await sql.end()
  }
}

// The one step a rollout runs before new replicas start (the Kubernetes Job / Helm hook).
await runCommand(USAGE, async (argv, env) => {
  // It changes a database: a mistyped flag must stop it, not be ignored.
  const { positionals } = parseCommandArgs(argv, {})
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`)
  const server = await resolvePostgres(env.DATABASE_URL)
  try {
    const run = await migrateDatabase(server.url, retryPolicyOf(env))
    const applied = [
      ...run.migrations.map((migration) => migration.name),
      ...(run.currentSql ? ['the functions, triggers and views of packages/db/sql'] : []),
    ]
    console.log(applied.length === 0 ? 'Database is up to date.' : `Applied ${applied.join(', ')}.`)
    await reportRefusedNames(server.url)
  } finally {
    await server.stop()
  }
})
