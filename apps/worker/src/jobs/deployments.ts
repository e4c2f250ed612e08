import type { Tx } from '@shiplog/db/client'
import { isDatabaseUnavailable } from '@shiplog/db/errors'
import { recordDeployments } from '@shiplog/db/queries/record-deployments'
import { type BatchOutcome, DeploymentJob, type TakenJob } from '@shiplog/db/queue'
import { TypeCompiler } from '@sinclair/typebox/compiler'

const payload = TypeCompiler.Compile(DeploymentJob)

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Records a batch of taken deployments inside the queue's transaction. The whole batch goes in
 * one set-based write; if that fails, each job is retried alone under its own savepoint so a bad
 * job fails by itself and never blocks or loses the others.
 */
export async function recordJobs(tx: Tx, jobs: TakenJob[]): Promise<BatchOutcome> {
  const failed: BatchOutcome['failed'] = []
  const valid: TakenJob[] = []
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
  const payloads = (list: TakenJob[]) => list.map((job) => job.data as DeploymentJob)
  try {
    await tx.savepoint((sp) => recordDeployments(sp, payloads(valid)))
    return { recorded: valid, failed }
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error
  }
  const recorded: TakenJob[] = []
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
