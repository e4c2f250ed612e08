import type { Tx } from '@shiplog/db/client'
import { isDatabaseUnavailable } from '@shiplog/db/errors'
import { recordDeployments } from '@shiplog/db/queries/record-deployments'
import { DeploymentJob } from '@shiplog/schema'
import { TypeCompiler } from '@sinclair/typebox/compiler'

export { DEPLOYMENTS_QUEUE as QUEUE } from '@shiplog/db/queue'

const payload = TypeCompiler.Compile(DeploymentJob)

/** A fetched job as the handler sees it. */
export interface FetchedJob {
  id: string
  retryCount: number
  retryLimit: number
  data: unknown
  /** Taken from the inbox (its first attempt), not a pg-boss job. */
  inbox?: boolean
}

/** The handler's verdict on a batch: which jobs are recorded and which failed, and why. */
export interface BatchOutcome {
  recorded: FetchedJob[]
  failed: { job: FetchedJob; reason: string }[]
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Records a batch of deployment jobs inside the caller's transaction. The whole batch goes in one
 * set-based write; if that fails, each job is retried alone under its own savepoint so a bad job
 * fails by itself and never blocks or loses the others.
 */
export async function handleDeployments(tx: Tx, jobs: FetchedJob[]): Promise<BatchOutcome> {
  const failed: BatchOutcome['failed'] = []
  const valid: FetchedJob[] = []
  for (const job of jobs) {
    if (payload.Check(job.data)) valid.push(job)
    else {
      const first = payload.Errors(job.data).First()
      failed.push({
        job,
        reason: `malformed payload: ${first?.path || '/'} ${first?.message ?? ''}`.trim(),
      })
    }
  }
  const payloads = (list: FetchedJob[]) => list.map((job) => job.data as DeploymentJob)
  try {
    await tx.savepoint((sp) => recordDeployments(sp, payloads(valid)))
    return { recorded: valid, failed }
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error
  }
  const recorded: FetchedJob[] = []
  for (const job of valid) {
    try {
      await tx.savepoint((sp) => recordDeployments(sp, payloads([job])))
      recorded.push(job)
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error
      failed.push({ job, reason: reasonOf(error) })
    }
  }
  return { recorded, failed }
}
