import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import { listDeployments } from '@shiplog/db/queries/deployments'
import { type DeploymentPage, nameKey, validateDeployment } from '@shiplog/schema'
import type { Static } from '@sinclair/typebox'
import { CommitOutcomeUnknown, type Enqueuer } from '../../enqueue/deployment-queue.ts'
import { problems } from '../../plugins/problem/index.ts'
import { decodeCursor, encodeCursor } from './cursor.ts'
import { parseIdempotencyKey } from './idempotency-key.ts'
import type { ListDeploymentsQuery } from './model.ts'

/**
 * Validates a deployment and queues it. Resolves once it is durably queued; throws a 422 problem
 * for invalid input or a reused Idempotency-Key, a 503 problem when the queue cannot commit.
 */
export async function acceptDeployment(
  queue: Enqueuer,
  owner: KeyOwner,
  body: unknown,
  idempotencyHeader: string | null,
  receivedAt: Date,
): Promise<void> {
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
}

/** One page of the workspace's recorded deployments, newest `deployedAt` first. */
export async function listWorkspaceDeployments(
  sql: Sql,
  owner: KeyOwner,
  query: Static<typeof ListDeploymentsQuery>,
): Promise<DeploymentPage> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
  if (query.cursor !== undefined && !after) {
    throw problems.validation([
      { field: 'cursor', message: 'is not a cursor this API returned; pass nextCursor unchanged' },
    ])
  }
  const page = await listDeployments(sql, {
    workspaceId: owner.workspaceId,
    appKey: query.app === undefined ? undefined : nameKey(query.app.trim()),
    environmentKey: query.environment === undefined ? undefined : nameKey(query.environment.trim()),
    limit: query.limit ?? 50,
    after,
  })
  return { data: page.records, nextCursor: page.next ? encodeCursor(page.next) : null }
}
