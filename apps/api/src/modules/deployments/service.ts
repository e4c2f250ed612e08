import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { listDeployments } from '@shiplog/db/queries/deployments'
import { listUnrecordedDeployments } from '@shiplog/db/queries/unrecorded-deployments'
import type { PgBoss } from '@shiplog/db/queue'
import { type DeploymentPage, encodeCursor, nameKey, validateDeployment } from '@shiplog/schema'
import type { Static } from '@sinclair/typebox'
import { CommitOutcomeUnknown, type Enqueuer } from '../../enqueue/deployment-queue.ts'
import { problems } from '../../plugins/problem/index.ts'
import { parseIdempotencyKey } from './idempotency-key.ts'
import type { ListDeploymentsQuery } from './model.ts'
import { findDeploymentStatus, jobStatus, recordedStatus } from './receipts.ts'

/**
 * Validates a deployment and queues it; resolves with its id (the original one for a repeated
 * Idempotency-Key) once durably queued. Throws a 422 problem for invalid input or a reused
 * Idempotency-Key, a 503 problem when the queue cannot commit.
 */
export async function acceptDeployment(
  queue: Enqueuer,
  owner: KeyOwner,
  body: unknown,
  idempotencyHeader: string | null,
  receivedAt: Date,
): Promise<string> {
  const validation = validateDeployment(body, receivedAt)
  const errors = validation.ok ? [] : [...validation.errors]
  let idempotencyKey: string | undefined
  if (idempotencyHeader !== null) {
    const parsed = parseIdempotencyKey(idempotencyHeader)
    if (parsed.ok) idempotencyKey = parsed.key
    else errors.push({ field: 'Idempotency-Key', message: parsed.message })
  }
  if (!validation.ok || errors.length > 0) throw problems.validation(errors)

  const outcome = await queue
    .enqueue({
      workspaceId: owner.workspaceId,
      fields: validation.value,
      receivedAt,
      idempotencyKey,
    })
    .catch((error) => {
      if (error instanceof CommitOutcomeUnknown) throw problems.outcomeUnknown()
      throw problems.unavailable(
        'The deployment could not be queued because the database is unavailable; it was not accepted. Retry shortly.',
      )
    })
  if (outcome.kind === 'conflict') {
    throw problems.validation(
      [{ field: 'Idempotency-Key', message: 'was already used with a different request body' }],
      'This Idempotency-Key belongs to another deployment; use a new key for a new deployment.',
    )
  }
  return outcome.id
}

/** The receipt of one of the workspace's deployments, or a 404 problem. */
export async function getDeployment(sql: Sql, boss: PgBoss, owner: KeyOwner, id: string) {
  const status = await findDeploymentStatus(sql, boss, owner.workspaceId, id)
  if (!status) {
    throw problems.notFound(
      'No deployment with this id in your workspace: use the id from the Location of its 202, with a key of the same workspace.',
    )
  }
  return status
}

type ListQuery = Static<typeof ListDeploymentsQuery>

const key = (value: string | undefined) => (value === undefined ? undefined : nameKey(value))

/** One page of the workspace's deployments, newest `deployedAt` first, whatever their status. */
export async function listWorkspaceDeployments(
  sql: Sql,
  owner: KeyOwner,
  query: ListQuery,
): Promise<DeploymentPage> {
  const filters = {
    workspaceId: owner.workspaceId,
    appKey: key(query.app),
    environmentKey: key(query.environment),
    repositoryKey: key(query.repository),
    version: query.version,
    commitPrefix: query.commitHash?.toLowerCase(),
    since: query.since?.iso,
    until: query.until?.iso,
    limit: query.limit ?? 50,
    after: query.cursor,
  }
  const status = query.status ?? 'recorded'
  if (status === 'recorded') {
    const page = await listDeployments(sql, filters)
    return {
      data: page.records.map((record) => recordedStatus(record)),
      nextCursor: page.next ? encodeCursor(page.next) : null,
    }
  }
  const page = await listUnrecordedDeployments(sql, { ...filters, status })
  return {
    data: page.jobs.map((job) => jobStatus(job, status === 'failed')),
    nextCursor: page.next ? encodeCursor(page.next) : null,
  }
}
