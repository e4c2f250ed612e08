import { resolvePostgres } from '@shiplog/db/embedded'
import { setUpDatabase } from '@shiplog/db/setup'
import { runCommand } from './command.ts'
import { retryPolicyOf } from './database.ts'

// The one step a rollout runs before new replicas start (the Kubernetes Job / Helm hook).
await runCommand('Usage: bun run migrate', async (_argv, env) => {
  const server = await resolvePostgres(env.DATABASE_URL)
  try {
    const applied = await setUpDatabase(server.url, retryPolicyOf(env))
    console.log(
      applied.length === 0
        ? 'Database is up to date.'
        : `Applied ${applied.map((migration) => migration.name).join(', ')}.`,
    )
  } finally {
    await server.stop()
  }
})
