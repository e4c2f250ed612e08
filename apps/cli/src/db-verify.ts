import { readModelMatches, rebuildReadModel, verifyReadModel } from '@shiplog/db/read-model'
import { parseCommandArgs, runCommand, table, UsageError } from './command.ts'
import { openDatabase } from './database.ts'

const USAGE = `Usage:
  bun run db:verify            recompute the read model (latest deployment per application and
                               environment, counts per day and week) from the deployments and
                               report any difference; exit code 1 if there is one
  bun run db:verify --repair   rebuild the read model from the deployments, then check again
                               (writers wait while it rebuilds: seconds per million deployments)
  bun run db:verify -h         show this help`

await runCommand(USAGE, async (argv, env) => {
  const { values, positionals } = parseCommandArgs(argv, { repair: { type: 'boolean' } })
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`)
  const database = await openDatabase(env)
  try {
    if (values.repair) {
      await rebuildReadModel(database.sql)
      console.log('Rebuilt the read model from the deployments.')
    }
    const checks = await verifyReadModel(database.sql)
    console.log(
      table(
        ['table', 'rows', 'missing', 'unexpected'],
        checks.map((check) => [
          check.table,
          String(check.rows),
          String(check.missing),
          String(check.unexpected),
        ]),
      ),
    )
    if (readModelMatches(checks)) {
      console.log('The read model matches the deployments.')
      return
    }
    for (const check of checks)
      for (const example of check.examples) console.log(`${check.table} ${example}`)
    throw new Error('the read model differs from the deployments: run bun run db:verify --repair')
  } finally {
    await database.close()
  }
})
