import type { Sql } from '@shiplog/db/client'
import {
  DELIVERIES_KEPT,
  type DeliveryRow,
  listDeliveries,
} from '@shiplog/db/integrations/deliveries'
import {
  changeIntegration,
  createIntegration,
  deleteIntegration,
  findIntegration,
  IntegrationNameTaken,
  listIntegrations,
  rotateIntegrationSecret,
  type StoredIntegration,
} from '@shiplog/db/integrations/integrations'
import type { Actor } from '@shiplog/db/queries/audit-events'
import { SOURCES } from '@shiplog/integrations/interpret'
import { mappingInEffect } from '@shiplog/integrations/mapping-in-effect'
import type {
  Integration,
  IntegrationDelivery,
  IntegrationInput,
  IntegrationMapping,
  IntegrationPatch,
  IntegrationWithSecret,
} from '@shiplog/schema/integration'
import { SENDER_MADE_SECRETS } from '@shiplog/schema/integration'
import { problems } from '../../kernel/problems.ts'
import type { Workspace } from '../../kernel/workspace.ts'
import { newIntegrationSecret, SealingKeyMissing, storedSecret } from './credentials.ts'
import type { IntegrationDirectory } from './directory.ts'
import { hookPath } from './receiver.ts'
import type { Sealer } from './sealing.ts'

/** What the integrations' endpoints need besides Postgres. */
export interface IntegrationSettings {
  sealer: Sealer | undefined
  /** PUBLIC_URL, else undefined: the request's origin names the URL then. */
  publicUrl: string | undefined
  graceSeconds: number
  directory: IntegrationDirectory
}

const NOT_FOUND = 'No integration with this id in your workspace (GET /v1/integrations lists them).'

/** An integration as the API shows it; `origin` is the request's, used without PUBLIC_URL. */
export function integrationView(
  stored: StoredIntegration,
  settings: Pick<IntegrationSettings, 'publicUrl'>,
  origin: string,
  now = new Date(),
): Integration {
  const base = (settings.publicUrl ?? origin).replace(/\/$/, '')
  const graceOpen =
    stored.previousSecretUntil !== null && new Date(stored.previousSecretUntil) > now
  return {
    id: stored.id,
    source: stored.source,
    name: stored.name,
    url: `${base}${hookPath(stored.id)}`,
    events: [...SOURCES[stored.source].events],
    mapping: stored.mapping as IntegrationMapping,
    mappingInEffect: mappingInEffect(stored.source, stored.mapping as IntegrationMapping),
    createdAt: stored.createdAt,
    previousSecretValidUntil: graceOpen ? stored.previousSecretUntil : null,
  }
}

const nameTaken = (name: string) =>
  problems.conflict(
    `An integration named "${name}" exists in your workspace: choose another name, or change that one.`,
  )

const sealingMissing = () =>
  problems.unavailable(
    'GitHub integrations need INTEGRATION_SEALING_KEY to keep their secrets sealed, and it is not set: ask the operator to set it (docs/integrations.md).',
  )

async function secretFor(
  settings: IntegrationSettings,
  source: StoredIntegration['source'],
  given?: string,
) {
  const secret = given ?? newIntegrationSecret()
  try {
    return { secret, stored: await storedSecret(source, secret, settings.sealer) }
  } catch (error) {
    if (error instanceof SealingKeyMissing) throw sealingMissing()
    throw error
  }
}

export async function createWorkspaceIntegration(
  sql: Sql,
  settings: IntegrationSettings,
  owner: Workspace,
  actor: Actor,
  input: IntegrationInput,
  origin: string,
): Promise<IntegrationWithSecret> {
  const { secret, stored } = await secretFor(settings, input.source, input.secret)
  try {
    const created = await createIntegration(
      sql,
      {
        workspaceId: owner.workspaceId,
        source: input.source,
        name: input.name,
        mapping: input.mapping ?? {},
        secret: stored,
      },
      actor,
    )
    return { ...integrationView(created, settings, origin), secret }
  } catch (error) {
    if (error instanceof IntegrationNameTaken) throw nameTaken(input.name)
    throw error
  }
}

export async function workspaceIntegrations(
  sql: Sql,
  settings: IntegrationSettings,
  owner: Workspace,
  origin: string,
): Promise<Integration[]> {
  const stored = await listIntegrations(sql, owner.workspaceId)
  return stored.map((each) => integrationView(each, settings, origin))
}

export async function workspaceIntegration(
  sql: Sql,
  settings: IntegrationSettings,
  owner: Workspace,
  id: string,
  origin: string,
): Promise<Integration> {
  const stored = await findIntegration(sql, owner.workspaceId, id)
  if (!stored) throw problems.notFound(NOT_FOUND)
  return integrationView(stored, settings, origin)
}

export async function changeWorkspaceIntegration(
  sql: Sql,
  settings: IntegrationSettings,
  owner: Workspace,
  actor: Actor,
  id: string,
  patch: IntegrationPatch,
  origin: string,
): Promise<Integration> {
  try {
    const changed = await changeIntegration(sql, owner.workspaceId, id, patch, actor)
    if (!changed) throw problems.notFound(NOT_FOUND)
    settings.directory.forget(id)
    return integrationView(changed, settings, origin)
  } catch (error) {
    if (error instanceof IntegrationNameTaken) throw nameTaken(patch.name ?? '')
    throw error
  }
}

export async function rotateWorkspaceIntegrationSecret(
  sql: Sql,
  settings: IntegrationSettings,
  owner: Workspace,
  actor: Actor,
  id: string,
  origin: string,
  now = new Date(),
): Promise<IntegrationWithSecret> {
  const existing = await findIntegration(sql, owner.workspaceId, id)
  if (!existing) throw problems.notFound(NOT_FOUND)
  if (SENDER_MADE_SECRETS.includes(existing.source)) {
    throw problems.validation([
      {
        field: 'id',
        message:
          'PagerDuty makes the secret of a webhook subscription, not Shiplog: to change it, create a new integration with the new subscription’s secret, then delete this one',
      },
    ])
  }
  const { secret, stored } = await secretFor(settings, existing.source)
  const graceUntil = new Date(now.getTime() + settings.graceSeconds * 1000)
  const rotated = await rotateIntegrationSecret(
    sql,
    owner.workspaceId,
    id,
    stored,
    graceUntil,
    actor,
  )
  if (!rotated) throw problems.notFound(NOT_FOUND)
  settings.directory.forget(id)
  return { ...integrationView(rotated, settings, origin, now), secret }
}

export async function deleteWorkspaceIntegration(
  sql: Sql,
  settings: IntegrationSettings,
  owner: Workspace,
  actor: Actor,
  id: string,
): Promise<void> {
  if (!(await deleteIntegration(sql, owner.workspaceId, id, actor))) {
    throw problems.notFound(NOT_FOUND)
  }
  settings.directory.forget(id)
}

const deliveryView = (row: DeliveryRow): IntegrationDelivery => ({
  id: row.id,
  receivedAt: row.receivedAt,
  event: row.event,
  senderDeliveryId: row.senderDeliveryId,
  outcome: row.state === 'received' ? 'waiting' : row.state,
  reason: row.reason,
  duplicateOf: row.duplicateOf,
  deployment: row.deploymentId === null ? null : `/v1/deployments/${row.deploymentId}`,
  commits: row.commitCount,
  handledAt: row.handledAt,
})

/**
 * A page of the integration's deliveries, newest first, before `cursor` (a delivery's id) when
 * given; DELIVERIES_KEPT says how many are kept.
 */
export async function integrationDeliveriesPage(
  sql: Sql,
  owner: Workspace,
  id: string,
  page: { limit?: number; cursor?: string } = {},
): Promise<{ data: IntegrationDelivery[]; nextCursor: string | null }> {
  const stored = await findIntegration(sql, owner.workspaceId, id)
  if (!stored) throw problems.notFound(NOT_FOUND)
  const limit = page.limit ?? DELIVERIES_KEPT.latest
  const rows = await listDeliveries(sql, id, limit + 1, page.cursor)
  const data = rows.slice(0, limit).map(deliveryView)
  return { data, nextCursor: rows.length > limit ? (data.at(-1)?.id ?? null) : null }
}

/** The integration's latest deliveries, newest first: what its page and the CLI show. */
export async function integrationDeliveries(
  sql: Sql,
  owner: Workspace,
  id: string,
): Promise<IntegrationDelivery[]> {
  return (await integrationDeliveriesPage(sql, owner, id)).data
}
