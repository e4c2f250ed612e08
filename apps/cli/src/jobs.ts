import { DeploymentQueue } from '@shiplog/db/queue'
import { parseCommandArgs, runCommand, table, UsageError, utcSeconds } from './command.ts'
import { openDatabase } from './database.ts'

const USAGE = `Usage:
  bun run jobs failed                 list deployments that failed every attempt
  bun run jobs retry <id>             replay one (id from "jobs failed")
  bun run jobs retry --all            replay every failed deployment`

await runCommand(USAGE, async (argv, env) => {
  const { positionals, values } = parseCommandArgs(argv, { all: { type: 'boolean' } })
  const [command, target] = positionals
  if (command !== 'failed' && command !== 'retry') {
    throw new UsageError(command ? `unknown command "${command}"` : 'missing command')
  }
  if (command === 'retry' && !values.all && !target) {
    throw new UsageError('retry needs a job id, or --all')
  }

  const db = await openDatabase(env)
  const queue = new DeploymentQueue(db.sql, {
    url: db.url,
    role: 'producer',
    applicationName: 'shiplog-cli-queue',
    log: (line) => console.error(`queue: ${String(line.error ?? line.msg)}`),
  })
  try {
    await queue.start()
    if (command === 'failed') {
      const deadLetters = await queue.deadLetters()
      if (deadLetters.length === 0) {
        console.log('No failed deployments.')
        return
      }
      console.log(
        table(
          ['ID', 'DEPLOYMENT', 'APP', 'ENVIRONMENT', 'VERSION', 'ATTEMPTS', 'FAILED AT', 'REASON'],
          deadLetters.map((dead) => [
            dead.id,
            dead.deploymentId ?? '-',
            dead.app ?? '-',
            dead.environment ?? '-',
            dead.version ?? '-',
            String(dead.attempts),
            utcSeconds(dead.failedAt),
            (dead.reason ?? '-').slice(0, 120),
          ]),
        ),
      )
      console.log(`\n${deadLetters.length} failed. Replay with: bun run jobs retry <id> (or --all)`)
      return
    }
    const moved = await queue.replay(values.all ? 'all' : [target as string])
    if (moved === 0 && !values.all) {
      throw new Error(`no failed job with id ${target}; see bun run jobs failed`)
    }
    console.log(
      `Replayed ${moved} deployment${moved === 1 ? '' : 's'}; the worker records them again.`,
    )
  } finally {
    await queue.stop()
    await db.close()
  }
})
