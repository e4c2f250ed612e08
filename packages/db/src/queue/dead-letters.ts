import { DEAD_LETTERS, type Engine } from './engine.ts'

/** A deployment that failed every attempt, as `bun run jobs failed` lists it. */
export interface DeadLetter {
  /** The dead letter's own id, which `replay` takes. */
  id: string
  deploymentId: string | undefined
  app: string | undefined
  environment: string | undefined
  version: string | undefined
  attempts: number
  failedAt: Date
  reason: string | undefined
}

interface DeadJobData {
  id?: string
  deployment?: { app?: string; environment?: string; version?: string }
}

/** Every dead letter waiting to be replayed. */
export async function listDeadLetters(engine: Engine): Promise<DeadLetter[]> {
  const jobs = await engine.findJobs<DeadJobData>(DEAD_LETTERS, { queued: true })
  return jobs.map((job) => {
    const data = job.data ?? {}
    const output = job.sourceOutput as { message?: string } | null | undefined
    return {
      id: job.id,
      deploymentId: data.id,
      app: data.deployment?.app,
      environment: data.deployment?.environment,
      version: data.deployment?.version,
      attempts: (job.sourceRetryCount ?? 0) + 1,
      failedAt: job.createdOn,
      reason: output?.message,
    }
  })
}

/**
 * Sends dead letters back for another round of attempts: those of `ids`, or all of them. Resolves
 * with how many went back.
 */
export async function replayDeadLetters(engine: Engine, ids: string[] | 'all'): Promise<number> {
  if (ids !== 'all') return engine.redrive(DEAD_LETTERS, { ids })
  let moved = 0
  for (;;) {
    const batch = await engine.redrive(DEAD_LETTERS, { limit: 1000 })
    moved += batch
    if (batch === 0) return moved
  }
}
