import { createBoss, DEPLOYMENTS_DEAD_LETTER_QUEUE, stopQuietly } from '@shiplog/db/queue'
import { parseCommandArgs, runCommand, table, UsageError } from './command.ts'
import { openDatabase } from './database.ts'

const USAGE = `Usage:
  bun run jobs failed                 list deployments that failed every attempt
  bun run jobs retry <id>             replay one (id from "jobs failed")
  bun run jobs retry --all            replay every failed deployment`

interface DeadJobData {
  id?: string
  deployment?: { app?: string; environment?: string; version?: string }
}

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
  const boss = createBoss(db.url, 'producer', 'shiplog-cli-queue')
  boss.on('error', (error) => console.error(`pg-boss: ${String(error)}`))
  try {
    await boss.start()
    if (command === 'failed') {
      const jobs = await boss.findJobs<DeadJobData>(DEPLOYMENTS_DEAD_LETTER_QUEUE, { queued: true })
      if (jobs.length === 0) {
        console.log('No failed deployments.')
        return
      }
      console.log(
        table(
          ['ID', 'DEPLOYMENT', 'APP', 'ENVIRONMENT', 'VERSION', 'ATTEMPTS', 'FAILED AT', 'REASON'],
          jobs.map((job) => {
            const data = job.data ?? {}
            const output = job.sourceOutput as { message?: string } | null | undefined
            return [
              job.id,
              data.id ?? '-',
              data.deployment?.app ?? '-',
              data.deployment?.environment ?? '-',
              data.deployment?.version ?? '-',
              String((job.sourceRetryCount ?? 0) + 1),
              job.createdOn.toISOString().replace(/\.\d+Z$/, 'Z'),
              (output?.message ?? '-').slice(0, 120),
            ]
          }),
        ),
      )
      console.log(`\n${jobs.length} failed. Replay with: bun run jobs retry <id> (or --all)`)
      return
    }
    let moved = 0
    if (values.all) {
      for (;;) {
        const batch = await boss.redrive(DEPLOYMENTS_DEAD_LETTER_QUEUE, { limit: 1000 })
        moved += batch
        if (batch === 0) break
      }
    } else {
      moved = await boss.redrive(DEPLOYMENTS_DEAD_LETTER_QUEUE, { ids: [target as string] })
      if (moved === 0) throw new Error(`no failed job with id ${target}; see bun run jobs failed`)
    }
    console.log(
      `Replayed ${moved} deployment${moved === 1 ? '' : 's'}; the worker records them again.`,
    )
  } finally {
    await stopQuietly(boss)
    await db.close()
  }
})
