import type { Sql } from '@shiplog/db/client'
import { findChangeFailures } from '@shiplog/db/dora/change-failures'
import { commitsUnknownReason } from '@shiplog/db/integrations/commit-chains'
import { type Actor, recordAuditEvent } from '@shiplog/db/queries/audit-events'
import { productionEnvironments } from '@shiplog/db/queries/catalog'
import {
  findRecordedDeployment,
  listDeployments,
  type VoidedBy,
  voidDeployment,
} from '@shiplog/db/queries/deployments'
import {
  CommitOutcomeUnknown,
  type DeploymentQueue,
  fingerprintOf,
  QueueUnavailable,
} from '@shiplog/db/queue'
import {
  type ChangeFailure,
  type DeploymentFields,
  type DeploymentPage,
  type DeploymentRecord,
  type DeploymentStatus,
  encodeCursor,
  type ListDeploymentsQuery,
  nameKey,
} from '@shiplog/schema'
import { problems } from '../../kernel/problems.ts'
import type { ReadClients, Workspace } from '../../kernel/workspace.ts'

/**
 * The problem a failed acceptance answers: 503 to retry when the queue could not commit, 503
 * outcome-unknown when it cannot tell whether it did; anything else is not the queue's to map.
 */
export function acceptanceProblem(error: unknown): unknown {
  if (error instanceof QueueUnavailable) {
    return problems.unavailable(
      'The deployment could not be queued because the database is unavailable; it was not accepted. Retry shortly.',
    )
  }
  if (error instanceof CommitOutcomeUnknown) return problems.outcomeUnknown()
  return error
}

/** What a `POST /v1/deployments` told besides its body: when it came, from where, its key. */
interface Arrival {
  receivedAt: Date
  /** `cli` or `api` (`sourceOfRequest`). */
  source: string
  idempotencyKey: string | undefined
}

/**
 * Queues a checked deployment; resolves with its id (the original one for a repeated
 * Idempotency-Key) once durably queued. Throws a 422 problem for a reused Idempotency-Key, a 503
 * one when the queue could not take it.
 */
export async function acceptDeployment(
  queue: DeploymentQueue,
  owner: Workspace,
  { value, deployedAtDefaulted }: { value: DeploymentFields; deployedAtDefaulted: boolean },
  { receivedAt, source, idempotencyKey }: Arrival,
): Promise<string> {
  const outcome = await queue
    .accept({
      workspaceId: owner.workspaceId,
      fields: value,
      receivedAt,
      source,
      idempotency:
        idempotencyKey === undefined
          ? undefined
          : { key: idempotencyKey, fingerprint: fingerprintOf(value, deployedAtDefaulted) },
    })
    .catch((error) => {
      throw acceptanceProblem(error)
    })
  if (outcome.kind === 'conflict') {
    throw problems.validation(
      [{ field: 'Idempotency-Key', message: 'was already used with a different request body' }],
      'This Idempotency-Key belongs to another deployment; use a new key for a new deployment.',
    )
  }
  return outcome.id
}

/** A recorded deployment as a receipt; `changeFailure` from findChangeFailures. */
function recordedStatus(
  record: DeploymentRecord,
  changeFailure: ChangeFailure | undefined,
  duplicateOf: string | null = null,
  voided: VoidedBy | null = null,
): DeploymentStatus {
  return {
    ...record,
    status: voided ? 'voided' : 'recorded',
    changeFailure: changeFailure ?? null,
    duplicateOf,
    failure: null,
    voided,
  }
}

/** A recorded deployment's receipt, with its failure in production when it has one. */
async function receiptOf(
  sql: Sql,
  { record, duplicateOf, voided }: NonNullable<Awaited<ReturnType<typeof findRecordedDeployment>>>,
): Promise<DeploymentStatus> {
  const canonical = duplicateOf ?? record.id
  const failures = voided ? undefined : await findChangeFailures(sql, [canonical])
  const commitsUnknown = await commitsUnknownReason(sql, canonical)
  return {
    ...recordedStatus(record, failures?.get(canonical), duplicateOf, voided),
    ...(commitsUnknown === undefined ? {} : { commitsUnknown }),
  }
}

/**
 * The receipt of one of the workspace's deployments: recorded (a row, or a repeat of one), else
 * what the queue knows of it; a 404 problem when neither knows the id.
 */
export async function getDeployment(
  { replica, primary }: ReadClients,
  queue: DeploymentQueue,
  owner: Workspace,
  id: string,
): Promise<DeploymentStatus> {
  const recorded = await findRecordedDeployment(replica, owner.workspaceId, id)
  if (recorded) return receiptOf(replica, recorded)
  const queued = await queue.status(owner.workspaceId, id)
  if (queued) return queued
  // Asked on the primary: the worker records a deployment and completes its job in one
  // transaction, which may have committed between the two reads above, and the replica may not
  // have replayed it yet. Either way the row is there, and a 202's receipt is never a 404.
  const late = await findRecordedDeployment(primary, owner.workspaceId, id)
  if (late) return receiptOf(primary, late)
  throw problems.notFound(
    'No deployment with this id in your workspace: use the id from the Location of its 202, with a key of the same workspace.',
  )
}

const flag = (value: 'true' | 'false' | undefined) =>
  value === undefined ? undefined : value === 'true'

const key = (value: string | undefined) => (value === undefined ? undefined : nameKey(value))

/**
 * What the database filters by, from a list's query: names as keys. A 422 for a change type
 * asked of deployments not recorded, which have none yet.
 */
export function filtersOf(owner: Workspace, query: ListDeploymentsQuery) {
  const status = query.status ?? 'recorded'
  const recordedOnly = (['changeType', 'failed', 'rework', 'production'] as const).filter(
    (field) => query[field] !== undefined,
  )
  if (status !== 'recorded' && recordedOnly.length > 0) {
    throw problems.validation(
      recordedOnly.map((field) => ({
        field,
        message: `is known once a deployment is recorded: leave it out to list ${status} ones`,
      })),
    )
  }
  return {
    workspaceId: owner.workspaceId,
    appKey: key(query.app),
    environmentKey: key(query.environment),
    repositoryKey: key(query.repository),
    version: query.version,
    commitPrefix: query.commitHash?.toLowerCase(),
    since: query.since?.iso,
    until: query.until?.iso,
    changeType: query.changeType,
    failed: flag(query.failed),
    rework: flag(query.rework),
  }
}

/**
 * filtersOf, with the environments `production` names (true: the production ones, false: the
 * others), as GET /v1/environments places them.
 */
export async function resolvedFiltersOf(sql: Sql, owner: Workspace, query: ListDeploymentsQuery) {
  const filters = filtersOf(owner, query)
  if (query.production === undefined) return filters
  const names = await productionEnvironments(sql, owner.workspaceId, query.production === 'true')
  return { ...filters, environmentKeys: names.map(nameKey) }
}

/**
 * One page of the workspace's deployments, newest `deployedAt` first, whatever their status:
 * recorded ones from the replica, queued and failed ones from the queue, which only the primary
 * holds up to date.
 */
export async function listWorkspaceDeployments(
  { replica }: ReadClients,
  queue: DeploymentQueue,
  owner: Workspace,
  query: ListDeploymentsQuery,
): Promise<DeploymentPage> {
  const filters = {
    ...(await resolvedFiltersOf(replica, owner, query)),
    limit: query.limit ?? 50,
    after: query.cursor,
  }
  const status = query.status ?? 'recorded'
  if (status === 'recorded') {
    const page = await listDeployments(replica, filters)
    const failures = await findChangeFailures(
      replica,
      page.records.map((record) => record.id),
    )
    return {
      data: page.records.map((record) => recordedStatus(record, failures.get(record.id))),
      nextCursor: page.next ? encodeCursor(page.next) : null,
    }
  }
  const page = await queue.list({ ...filters, status })
  return { data: page.statuses, nextCursor: page.next ? encodeCursor(page.next) : null }
}

/**
 * Voids a recorded deployment of the workspace (`DELETE /v1/deployments/{id}`), keeping who, when
 * and why, in its row and in the audit trail (one transaction); answers its receipt. 409 while it
 * is queued (or if it failed): only what was recorded can be voided. Voiding one already voided
 * changes nothing.
 */
export async function voidWorkspaceDeployment(
  clients: ReadClients,
  queue: DeploymentQueue,
  owner: Workspace,
  actor: Actor,
  id: string,
  reason: string | null,
): Promise<DeploymentStatus> {
  // The primary alone: it holds the row to void, and may have just recorded it.
  const primaryOnly = { replica: clients.primary, primary: clients.primary }
  const receipt = await getDeployment(primaryOnly, queue, owner, id)
  if (receipt.status === 'queued' || receipt.status === 'failed') {
    throw problems.conflict(
      receipt.status === 'queued'
        ? 'This deployment is still queued: void it once its receipt says recorded.'
        : 'This deployment failed to record, so there is nothing to void.',
    )
  }
  await clients.primary.begin(async (tx) => {
    const voided = await voidDeployment(tx, owner.workspaceId, id, { actor, reason })
    if (voided === undefined) return
    await recordAuditEvent(tx, {
      workspaceId: owner.workspaceId,
      actor,
      action: 'deployment.voided',
      targetId: voided,
      details: { reason },
    })
  })
  return getDeployment(primaryOnly, queue, owner, id)
}
