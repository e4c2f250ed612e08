import type { Queryable, Sql } from '../client.ts'
import { type Actor, recordAuditEvent } from '../queries/audit-events.ts'
import { uuidv7 } from '../uuidv7.ts'

export type { IntegrationSource } from '@shiplog/schema/integration'

import type { IntegrationSource } from '@shiplog/schema/integration'

/** An integration as stored: its secret in the form that proves a delivery (sealed or hashed). */
export interface StoredIntegration {
  id: string
  workspaceId: string
  source: IntegrationSource
  name: string
  mapping: Record<string, unknown>
  secret: Uint8Array
  previousSecret: Uint8Array | null
  previousSecretUntil: string | null
  createdAt: string
}

const COLUMNS = (sql: Queryable) => sql`
  id::text as id, workspace_id::text as "workspaceId", source, name, mapping, secret,
  previous_secret as "previousSecret", iso_utc(previous_secret_until) as "previousSecretUntil",
  iso_utc(created_at) as "createdAt"`

/** Another integration of the workspace already has this name (case-insensitive). */
export class IntegrationNameTaken extends Error {
  constructor(readonly takenName: string) {
    super(`an integration named ${takenName} exists`)
  }
}

const isNameTaken = (error: unknown) =>
  (error as { constraint_name?: string })?.constraint_name === 'integrations_name'

/** Creates one, with its audit event, in one transaction. */
export async function createIntegration(
  sql: Sql,
  input: {
    workspaceId: string
    source: IntegrationSource
    name: string
    mapping: Record<string, unknown>
    secret: Uint8Array
  },
  actor: Actor,
): Promise<StoredIntegration> {
  const id = uuidv7()
  try {
    return await sql.begin(async (tx) => {
      const [row] = await tx<StoredIntegration[]>`
        insert into integrations (id, workspace_id, source, name, mapping, secret)
        values (${id}, ${input.workspaceId}, ${input.source}, ${input.name},
                ${tx.json(input.mapping as never)}, ${input.secret})
        returning ${COLUMNS(tx)}`
      await recordAuditEvent(tx, {
        workspaceId: input.workspaceId,
        actor,
        action: 'integration.created',
        targetId: id,
        details: { source: input.source, name: input.name },
      })
      if (!row) throw new Error('insert returned no row')
      return row
    })
  } catch (error) {
    if (isNameTaken(error)) throw new IntegrationNameTaken(input.name)
    throw error
  }
}

/** One of the workspace's integrations, or undefined. */
export async function findIntegration(
  sql: Queryable,
  workspaceId: string,
  id: string,
): Promise<StoredIntegration | undefined> {
  const [row] = await sql<StoredIntegration[]>`
    select ${COLUMNS(sql)} from integrations
     where id = ${id}::uuid and workspace_id = ${workspaceId}`
  return row
}

/** An integration by id alone: what a receiver looks up (its URL names no workspace). */
export async function findIntegrationById(
  sql: Queryable,
  id: string,
): Promise<StoredIntegration | undefined> {
  const [row] = await sql<StoredIntegration[]>`
    select ${COLUMNS(sql)} from integrations where id = ${id}::uuid`
  return row
}

/** The workspace's integrations, by name. */
export async function listIntegrations(
  sql: Queryable,
  workspaceId: string,
): Promise<StoredIntegration[]> {
  return sql<StoredIntegration[]>`
    select ${COLUMNS(sql)} from integrations
     where workspace_id = ${workspaceId} order by lower(name), id`
}

/** Replaces the mapping (and the name, when given); undefined when there is no such integration. */
export async function changeIntegration(
  sql: Sql,
  workspaceId: string,
  id: string,
  change: { mapping?: Record<string, unknown>; name?: string },
  actor: Actor,
): Promise<StoredIntegration | undefined> {
  try {
    return await sql.begin(async (tx) => {
      const [row] = await tx<StoredIntegration[]>`
        update integrations
           set mapping = coalesce(${change.mapping === undefined ? null : tx.json(change.mapping as never)}::jsonb, mapping),
               name = coalesce(${change.name ?? null}, name)
         where id = ${id}::uuid and workspace_id = ${workspaceId}
         returning ${COLUMNS(tx)}`
      if (!row) return undefined
      await recordAuditEvent(tx, {
        workspaceId,
        actor,
        action: 'integration.changed',
        targetId: id,
        details: {
          ...(change.name === undefined ? {} : { name: change.name }),
          ...(change.mapping === undefined ? {} : { mapping: JSON.stringify(change.mapping) }),
        },
      })
      return row
    })
  } catch (error) {
    if (isNameTaken(error)) throw new IntegrationNameTaken(change.name ?? '')
    throw error
  }
}

/**
 * Puts a new secret in place; the current one becomes the previous, accepted until `graceUntil`.
 * Undefined when there is no such integration.
 */
export async function rotateIntegrationSecret(
  sql: Sql,
  workspaceId: string,
  id: string,
  secret: Uint8Array,
  graceUntil: Date,
  actor: Actor,
): Promise<StoredIntegration | undefined> {
  return sql.begin(async (tx) => {
    const [row] = await tx<StoredIntegration[]>`
      update integrations
         set previous_secret = secret, previous_secret_until = ${graceUntil}, secret = ${secret}
       where id = ${id}::uuid and workspace_id = ${workspaceId}
       returning ${COLUMNS(tx)}`
    if (!row) return undefined
    await recordAuditEvent(tx, {
      workspaceId,
      actor,
      action: 'integration.secret_rotated',
      targetId: id,
      details: { previousUntil: graceUntil.toISOString() },
    })
    return row
  })
}

/** Deletes it and its deliveries; false when there was none. What it recorded stays. */
export async function deleteIntegration(
  sql: Sql,
  workspaceId: string,
  id: string,
  actor: Actor,
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const [row] = await tx<{ name: string; source: string }[]>`
      delete from integrations where id = ${id}::uuid and workspace_id = ${workspaceId}
      returning name, source`
    if (!row) return false
    await recordAuditEvent(tx, {
      workspaceId,
      actor,
      action: 'integration.deleted',
      targetId: id,
      details: { name: row.name, source: row.source },
    })
    return true
  })
}
