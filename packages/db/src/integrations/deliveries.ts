import type { IntegrationSource } from '@shiplog/schema/integration'
import type { Queryable, Sql, Tx } from '../client.ts'
import { uuidv7 } from '../uuidv7.ts'
import { deflateBody, inflateBody } from './delivery-body.ts'

/** A delivery a receiver verified, to store before it answers. */
export interface ReceivedDelivery {
  integrationId: string
  workspaceId: string
  receivedAt: Date
  /** The sender's name for it: `deployment_status`, `push`, `Deployment Hook`… */
  event: string
  /** The sender's own id of this delivery, shown in the list. */
  senderDeliveryId: string | null
  /** What makes a redelivery a duplicate: the sender's id, else a digest of the body. */
  dedupeKey: string
  /** The body's bytes as received: JSON's UTF-8 (checked by the receiver). */
  body: Uint8Array
  /** The request's headers a mapping may read (never the secret's). */
  headers: Record<string, string>
  /** Set for a delivery with nothing to do (a ping): stored as already handled. */
  ignored?: string
}

/** What storing a delivery made of it: a new one, or a repeat of the first with its key. */
export type StoredDelivery =
  | { kind: 'new'; id: string }
  | { kind: 'duplicate'; id: string; duplicateOf: string }

/**
 * Stores a group of verified deliveries (the receivers' group commit) as one insert whatever its
 * size, and a second only for repeats: each delivery is the first of its key, or is kept as a
 * duplicate naming the first. Two of one key in the same group are a first and its duplicate, as
 * if they had come one after the other. No transaction around the two (it cost the group two
 * more round trips through a busy event loop): each is atomic, and if the second fails the group
 * is answered 503, so a sender retries the deliveries the first had stored, which are then
 * duplicates of themselves: nothing lost, nothing counted twice.
 */
export async function storeDeliveries(
  sql: Sql,
  deliveries: ReceivedDelivery[],
): Promise<StoredDelivery[]> {
  const ids = deliveries.map(() => uuidv7())
  const bodies = await Promise.all(
    deliveries.map((delivery) =>
      delivery.ignored === undefined ? deflateBody(delivery.body) : null,
    ),
  )
  // One row of values each, in arrival order: a later row of a key already inserted (by an
  // earlier commit or an earlier row here) conflicts and is not inserted. A group of deliveries
  // to handle leaves state, reason and handled_at to their defaults: three parameters fewer each.
  const anyIgnored = deliveries.some((delivery) => delivery.ignored !== undefined)
  const rows = deliveries.map((delivery, index) => ({
    id: ids[index] as string,
    integration_id: delivery.integrationId,
    workspace_id: delivery.workspaceId,
    received_at: delivery.receivedAt,
    event: delivery.event,
    sender_delivery_id: delivery.senderDeliveryId,
    dedupe_key: delivery.dedupeKey,
    body_deflated: bodies[index] ?? null,
    headers: delivery.headers,
    ...(anyIgnored
      ? {
          state: delivery.ignored === undefined ? 'received' : 'ignored',
          reason: delivery.ignored ?? null,
          handled_at: delivery.ignored === undefined ? null : delivery.receivedAt,
        }
      : {}),
  }))
  const inserted = await sql`
    insert into integration_deliveries ${sql(rows)}
    on conflict (integration_id, dedupe_key) where state not in ('duplicate', 'refused')
    do nothing`
  if (inserted.count === rows.length) return ids.map((id) => ({ kind: 'new', id }) as const)
  // Some were repeats: which, asked afterwards (returning every row's id cost each group more
  // than this costs the rare group with a repeat).
  const firsts = await sql<{ id: string }[]>`
    select id::text as id from integration_deliveries where id = any(${ids}::uuid[])`
  const stored = new Set(firsts.map((row) => row.id))
  const repeats = deliveries.flatMap((delivery, index) =>
    stored.has(ids[index] as string) ? [] : [{ delivery, id: ids[index] as string }],
  )
  const repeated = await sql<{ id: string; duplicateOf: string }[]>`
    insert into integration_deliveries (id, integration_id, workspace_id, received_at, event,
                                        sender_delivery_id, dedupe_key, headers, state,
                                        duplicate_of, handled_at)
    select given.id, given.integration_id, given.workspace_id, given.received_at, given.event,
           given.sender_delivery_id, given.dedupe_key, given.headers, 'duplicate', first.id,
           given.received_at
      from unnest(${repeats.map((r) => r.id)}::uuid[],
                  ${repeats.map((r) => r.delivery.integrationId)}::uuid[],
                  ${repeats.map((r) => r.delivery.workspaceId)}::bigint[],
                  ${repeats.map((r) => r.delivery.receivedAt.toISOString())}::timestamptz[],
                  ${repeats.map((r) => r.delivery.event)}::text[],
                  ${repeats.map((r) => r.delivery.senderDeliveryId)}::text[],
                  ${repeats.map((r) => r.delivery.dedupeKey)}::text[],
                  ${repeats.map((r) => JSON.stringify(r.delivery.headers))}::jsonb[])
           as given(id, integration_id, workspace_id, received_at, event, sender_delivery_id,
                    dedupe_key, headers)
      join integration_deliveries first
        on first.integration_id = given.integration_id and first.dedupe_key = given.dedupe_key
       and first.state not in ('duplicate', 'refused')
    returning id::text as id, duplicate_of::text as "duplicateOf"`
  const firstOf = new Map(repeated.map((row) => [row.id, row.duplicateOf]))
  return ids.map((id): StoredDelivery => {
    const duplicateOf = firstOf.get(id)
    return duplicateOf === undefined ? { kind: 'new', id } : { kind: 'duplicate', id, duplicateOf }
  })
}

/** Keeps a refused delivery (without its body), so the list says why it was refused. */
export async function storeRefusedDelivery(
  sql: Queryable,
  refused: {
    integrationId: string
    workspaceId: string
    receivedAt: Date
    event: string
    senderDeliveryId: string | null
    reason: string
  },
): Promise<string> {
  const id = uuidv7()
  await sql`
    insert into integration_deliveries (id, integration_id, workspace_id, received_at, event,
                                        sender_delivery_id, state, reason, handled_at)
    values (${id}, ${refused.integrationId}, ${refused.workspaceId}, ${refused.receivedAt},
            ${refused.event}, ${refused.senderDeliveryId}, 'refused', ${refused.reason},
            ${refused.receivedAt})`
  return id
}

/** One delivery as the list shows it. */
export interface DeliveryRow {
  id: string
  receivedAt: string
  event: string
  senderDeliveryId: string | null
  state: 'received' | 'recorded' | 'duplicate' | 'ignored' | 'refused'
  reason: string | null
  duplicateOf: string | null
  deploymentId: string | null
  commitCount: number | null
  handledAt: string | null
}

/** How many deliveries the list shows at most, and the days it reaches back at least. */
export const DELIVERIES_KEPT = { latest: 100, days: 7 } as const

/** An integration's deliveries, newest first: the latest `limit`, before `before` when given. */
export async function listDeliveries(
  sql: Queryable,
  integrationId: string,
  limit: number,
  before?: string,
): Promise<DeliveryRow[]> {
  return sql<DeliveryRow[]>`
    select id::text as id, iso_utc(received_at) as "receivedAt", event,
           sender_delivery_id as "senderDeliveryId", state, reason,
           duplicate_of::text as "duplicateOf", deployment_id::text as "deploymentId",
           commit_count as "commitCount", iso_utc(handled_at) as "handledAt"
      from integration_deliveries
     where integration_id = ${integrationId}
       and (${before ?? null}::uuid is null or id < ${before ?? null}::uuid)
     order by id desc
     limit ${limit}`
}

/**
 * Forgets deliveries older than DELIVERIES_KEPT.days beyond each integration's latest
 * DELIVERIES_KEPT.latest; those still waiting for the worker are kept whatever their age, unless
 * their integration is gone (stored as it was deleted: the worker never takes them).
 */
export async function forgetOldDeliveries(sql: Sql, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DELIVERIES_KEPT.days * 86_400_000)
  const old = await sql`
    delete from integration_deliveries d
     where d.received_at < ${cutoff} and d.state <> 'received'
       and d.id < (select k.id from integration_deliveries k
                    where k.integration_id = d.integration_id
                    order by k.id desc offset ${DELIVERIES_KEPT.latest - 1} limit 1)`
  const orphaned = await sql`
    delete from integration_deliveries d
     where d.state = 'received'
       and not exists (select 1 from integrations i where i.id = d.integration_id)`
  return old.count + orphaned.count
}

/** A delivery waiting for the worker, with what its integration says about reading it. */
export interface WaitingDelivery {
  id: string
  integrationId: string
  workspaceId: string
  source: IntegrationSource
  mapping: Record<string, unknown>
  receivedAt: Date
  event: string
  body: string
  headers: Record<string, string>
}

/**
 * Takes up to `limit` waiting deliveries, oldest first, locked for the caller's transaction:
 * another worker skips them, and a rollback (a killed worker) leaves them waiting.
 */
export async function takeWaitingDeliveries(tx: Tx, limit: number): Promise<WaitingDelivery[]> {
  const rows = await tx<(Omit<WaitingDelivery, 'body'> & StoredBody)[]>`
    select d.id::text as id, d.integration_id::text as "integrationId",
           d.workspace_id::text as "workspaceId", i.source, i.mapping,
           d.received_at as "receivedAt", d.event, d.body as text,
           d.body_deflated as deflated, d.headers
      from integration_deliveries d join integrations i on i.id = d.integration_id
     where d.state = 'received'
     order by d.id
     limit ${limit}
       for update of d skip locked`
  return rows.map(({ text, deflated, ...row }) => ({ ...row, body: bodyText({ text, deflated }) }))
}

/** A body as a row holds it: compressed, or as text if stored before migration 0034. */
interface StoredBody {
  text: string | null
  deflated: Uint8Array | null
}

function bodyText({ text, deflated }: StoredBody): string {
  if (deflated === null) return text ?? ''
  try {
    return inflateBody(deflated)
  } catch {
    // Bytes that do not inflate (damaged in storage) read as no JSON: the worker ignores the
    // delivery with that reason instead of failing on it for good.
    return ''
  }
}

/** What the worker made of a delivery. */
export interface DeliverySettlement {
  state: 'recorded' | 'ignored'
  reason?: string | null
  deploymentId?: string | null
  senderDeploymentId?: string | null
  commitCount?: number | null
  /** Keeps the body, to be read again (a failure status waiting for its success). */
  keepBody?: boolean
}

export async function settleDelivery(
  tx: Tx,
  id: string,
  settlement: DeliverySettlement,
): Promise<void> {
  await tx`
    update integration_deliveries
       set state = ${settlement.state}, reason = ${settlement.reason ?? null},
           deployment_id = ${settlement.deploymentId ?? null},
           sender_deployment_id = ${settlement.senderDeploymentId ?? null},
           commit_count = ${settlement.commitCount ?? null},
           body = case when ${settlement.keepBody ?? false} then body end,
           body_deflated = case when ${settlement.keepBody ?? false} then body_deflated end,
           handled_at = now()
     where id = ${id}::uuid`
}

/**
 * Vacuums the tables the receivers and the worker rewrite most (each delivery is inserted, then
 * settled; each chain waits, then settles), so the worker's walk of waiting rows does not step
 * over dead ones where autovacuum is off or late. Skipped when another vacuum holds them.
 */
export async function vacuumDeliveries(sql: Sql): Promise<void> {
  await sql`vacuum (skip_locked) integration_deliveries, commit_chains`
}

/** How many deliveries wait for the worker, and how long the oldest has: the receivers' backlog. */
export async function waitingDeliveries(
  sql: Sql,
): Promise<{ count: number; oldestSeconds: number }> {
  // Both read the partial index of waiting rows: a step for the oldest, the rows for the count.
  const [row] = await sql<{ count: number; seconds: number | null }[]>`
    select (select count(*)::int from integration_deliveries where state = 'received') as count,
           extract(epoch from now() - (select received_at from integration_deliveries
                                        where state = 'received' order by id limit 1))::float8 as seconds`
  return { count: row?.count ?? 0, oldestSeconds: Math.max(0, row?.seconds ?? 0) }
}
