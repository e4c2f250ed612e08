import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { listDeployments } from '@shiplog/db/queries/deployments'
import type { PgBoss } from '@shiplog/db/queue'
import {
  type DeploymentPage,
  type DeploymentStatus,
  nameKey,
  validateDeployment,
} from '@shiplog/schema'
import type { Static } from '@sinclair/typebox'
import { CommitOutcomeUnknown, type Enqueuer } from '../../enqueue/deployment-queue.ts'
import { problems } from '../../plugins/problem/index.ts'
import { decodeCursor, encodeCursor } from './cursor.ts'
import { parseIdempotencyKey } from './idempotency-key.ts'
import type { ListDeploymentsQuery } from './model.ts'
import { findDeploymentStatus, listUnrecorded, recordedStatus } from './receipts.ts'

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
    throw problems.notFound('No deployment with this id in your workspace.')
  }
  return status
}

type ListQuery = Static<typeof ListDeploymentsQuery>

const key = (value: string | undefined) => (value === undefined ? undefined : nameKey(value.trim()))
const microsOf = (status: DeploymentStatus) => BigInt(Date.parse(status.deployedAt)) * 1000n

/** One page of the workspace's deployments, newest `deployedAt` first. */
export async function listWorkspaceDeployments(
  sql: Sql,
  boss: PgBoss,
  owner: KeyOwner,
  query: ListQuery,
): Promise<DeploymentPage> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
  if (query.cursor !== undefined && !after) {
    throw problems.validation([
      { field: 'cursor', message: 'is not a cursor this API returned; pass nextCursor unchanged' },
    ])
  }
  const filters = {
    appKey: key(query.app),
    environmentKey: key(query.environment),
    repositoryKey: key(query.repository),
    version: query.version,
    commitPrefix: query.commitHash?.toLowerCase(),
    since: query.since,
    until: query.until,
  }
  const limit = query.limit ?? 50
  if ((query.status ?? 'recorded') === 'recorded') {
    const page = await listDeployments(sql, {
      workspaceId: owner.workspaceId,
      ...filters,
      limit,
      after,
    })
    return {
      data: page.records.map((record) => recordedStatus(record)),
      nextCursor: page.next ? encodeCursor(page.next) : null,
    }
  }
  // Queued and dead-lettered deployments live in the queue: few, filtered here.
  const matches = (
    await listUnrecorded(sql, boss, owner.workspaceId, query.status as 'queued' | 'failed')
  )
    .filter(
      (status) =>
        (filters.appKey === undefined || nameKey(status.app) === filters.appKey) &&
        (filters.environmentKey === undefined ||
          nameKey(status.environment) === filters.environmentKey) &&
        (filters.repositoryKey === undefined ||
          nameKey(status.repositoryFullName) === filters.repositoryKey) &&
        (filters.version === undefined || status.version === filters.version) &&
        (filters.commitPrefix === undefined ||
          status.commitHash.startsWith(filters.commitPrefix)) &&
        (filters.since === undefined ||
          Date.parse(status.deployedAt) >= Date.parse(filters.since)) &&
        (filters.until === undefined || Date.parse(status.deployedAt) < Date.parse(filters.until)),
    )
    .sort((a, b) => Number(microsOf(b) - microsOf(a)) || (a.id < b.id ? 1 : -1))
    .filter(
      (status) =>
        !after ||
        microsOf(status) < after.deployedAtMicros ||
        (microsOf(status) === after.deployedAtMicros && status.id < after.id),
    )
  const data = matches.slice(0, limit)
  const last = data.at(-1)
  return {
    data,
    nextCursor:
      matches.length > limit && last
        ? encodeCursor({ deployedAtMicros: microsOf(last), id: last.id })
        : null,
  }
}
