import { findRefusedNames } from '@shiplog/db/queries/refused-names'
import { readModelMatches, rebuildReadModel, verifyReadModel } from '@shiplog/db/read-model'
import { parseCommandArgs, runCommand, table, UsageError } from './command.ts'
import { openDatabase } from './database.ts'

const USAGE = `Usage:
  bun run db:verify            recompute the read model (latest deployment per application and
                               environment, counts per day and week) from the deployments and
                               report any difference; exit code 1 if there is one. Also
                               lists the names stored before the names rule that it refuses
                               (listed only: renaming them is their owners' decision)
  bun run db:verify --repair   rebuild the read model from the deployments, then check again
                               (writers wait while it rebuilds: seconds per million deployments)
  bun run db:verify -h         show this help`

/** Names stored before the names rule that it refuses: a list for people, never a rename. */
async function reportRefusedNames(sql: Parameters<typeof findRefusedNames>[0]): Promise<void> {
  const refused = await findRefusedNames(sql)
  if (refused.length === 0) {
    console.log('Every stored name follows the names rule.')
    return
  }
  console.log(
    `${refused.length} stored names break the names rule (docs/decisions.md, "Names that look alike"); they are kept as they are:`,
  )
  console.log(
    table(
      ['table', 'id', 'name', 'why'],
      refused.map((name) => [name.table, name.id, name.name, name.reason]),
    ),
  )
}

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
    await reportRefusedNames(database.sql)
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
