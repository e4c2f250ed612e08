import { resolvePostgres } from '@shiplog/db/embedded'
import { migrateDatabase } from '@shiplog/db/migrate'
import { parseCommandArgs, runCommand, UsageError } from './command.ts'
import { retryPolicyOf } from './database.ts'

const USAGE = `Usage:
  bun run migrate       apply migrations, install pg-boss's schema, create the queues and
                        apply the JOB_RETRY_* policy, on DATABASE_URL (else the embedded Postgres)
  bun run migrate -h    show this help`

// The one step a rollout runs before new replicas start (the Kubernetes Job / Helm hook).
await runCommand(USAGE, async (argv, env) => {
  // It changes a database: a mistyped flag must stop it, not be ignored.
  const { positionals } = parseCommandArgs(argv, {})
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`)
  const server = await resolvePostgres(env.DATABASE_URL)
  try {
    const applied = await migrateDatabase(server.url, retryPolicyOf(env))
    console.log(
      applied.length === 0
        ? 'Database is up to date.'
        : `Applied ${applied.map((migration) => migration.name).join(', ')}.`,
    )
  } finally {
    await server.stop()
  }
})
