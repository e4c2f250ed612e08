import type { DeploymentStatus } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import { type DeploymentJob, sourceOf } from '../deployment-job.ts'
import { DEAD_LETTERS, type Engine, RETRIES, viaPostgresJs } from './engine.ts'
import { findInInbox } from './inbox.ts'

/** What a receipt needs of a queued job, from the engine's `findJobs` or our own listing. */
interface QueueJob {
  data: DeploymentJob
  createdOn: Date
  completedOn?: Date | null
  retryCount: number
  output?: { message?: string } | null
  sourceOutput?: { message?: string } | null
  sourceRetryCount?: number | null
}

interface FoundJob extends QueueJob {
  state: string
}

/** A queued or failed job's deployment as a receipt, in the spelling it was sent with. */
export function statusOfJob(job: QueueJob, failed: boolean): DeploymentStatus {
  const { deployment, id, receivedAt } = job.data
  const message = job.sourceOutput?.message ?? job.output?.message ?? 'unknown error'
  return {
    id,
    status: failed ? 'failed' : 'queued',
    ...deployment,
    receivedAt,
    source: sourceOf(job.data),
    recordedAt: null,
    changeType: null,
    changeFailure: null,
    duplicateOf: null,
    failure: failed
      ? {
          reason: message,
          attempts: (job.sourceRetryCount ?? job.retryCount) + 1,
          failedAt: (job.completedOn ?? job.createdOn).toISOString(),
        }
      : null,
    voided: null,
  }
}

const newestFirst = (a: FoundJob, b: FoundJob) => b.createdOn.getTime() - a.createdOn.getTime()

/**
 * What the queue knows of an accepted deployment not yet recorded: in the inbox, queued for a
 * retry, or failed with the reason (from the dead-letter queue), else undefined. Only the
 * workspace's own deployments are found.
 */
export async function findQueueStatus(
  sql: Sql,
  engine: Engine,
  workspaceId: string,
  id: string,
): Promise<DeploymentStatus | undefined> {
  const waiting = await findInInbox(sql, workspaceId, id)
  if (waiting)
    return statusOfJob(
      { data: waiting, createdOn: new Date(waiting.receivedAt), retryCount: 0 },
      false,
    )
  const db = viaPostgresJs(sql)
  // A replayed job has a new job id, so the deployment id in the payload is what is matched.
  const jobs = ((await engine.findJobs(RETRIES, { data: { id }, db })) as unknown as FoundJob[])
    .filter((job) => job.data.workspaceId === workspaceId)
    .sort(newestFirst)
  const latest = jobs[0]
  if (latest && ['created', 'retry', 'active'].includes(latest.state))
    return statusOfJob(latest, false)
  const dead = (
    (await engine.findJobs(DEAD_LETTERS, {
      data: { id },
      queued: true,
      db,
    })) as unknown as FoundJob[]
  )
    .filter((job) => job.data.workspaceId === workspaceId)
    .sort(newestFirst)
  if (dead[0]) return statusOfJob(dead[0], true)
  if (latest?.state === 'failed') return statusOfJob(latest, true)
  return undefined
}
