import type { PageCursor } from '@shiplog/schema'
import type { AuditAction, AuditEvent } from '@shiplog/schema/audit'
import type { Queryable, Sql } from '../client.ts'
import { instantAt, pageOf } from '../read/keyset.ts'

/**
 * Who does something: a person signed in through single sign-on, an API key (called directly or
 * signed in to the dashboard), or the command line on the server (`bun run keys`).
 */
export type Actor =
  | { kind: 'person'; personId: string }
  | { kind: 'key'; keyId: string }
  | { kind: 'cli' }

/** One change to record, in the transaction that makes it. */
export interface NewAuditEvent {
  workspaceId: string
  actor: Actor
  action: AuditAction
  targetId: string
  details: Record<string, string | null | string[]>
}

/** The actor's columns: a person's id, or a key's, or neither. */
export const actorColumns = (actor: Actor) => ({
  personId: actor.kind === 'person' ? actor.personId : null,
  keyId: actor.kind === 'key' ? actor.keyId : null,
})

/** Records a change; call it with the transaction of the change, so both commit or neither. */
export async function recordAuditEvent(sql: Queryable, event: NewAuditEvent): Promise<void> {
  const { personId, keyId } = actorColumns(event.actor)
  await sql`
    insert into audit_events (workspace_id, actor_person_id, actor_key_id, action, target_id, details)
    values (${event.workspaceId}, ${personId}, ${keyId}, ${event.action},
            ${event.targetId}, ${sql.json(event.details)})`
}

/** Which events of a workspace to list, newest first. */
export interface AuditFilters {
  workspaceId: string
  action?: AuditAction
  targetId?: string
  /** A person's email (any case) or a key's prefix. */
  actor?: string
  since?: string
  until?: string
  limit: number
  after?: PageCursor
}

type AuditRow = AuditEvent & { atMicros: string }

const eventColumns = (sql: Sql) => sql`
  e.id, iso_utc(e.at) as at, e.action, e.target_id as "targetId", e.details,
  json_build_object(
    'type', case when p.id is not null then 'person' when k.id is not null then 'key' else 'cli' end,
    'name', coalesce(p.name, k.name), 'email', p.email, 'keyPrefix', k.prefix) as actor,
  ((extract(epoch from e.at) * 1000000)::bigint)::text as "atMicros"`

const actorsJoined = (sql: Sql) => sql`
  audit_events e
  left join people p on p.id = e.actor_person_id
  left join api_keys k on k.id = e.actor_key_id`

/** One page of a workspace's audit trail: a backward walk of audit_events_newest. */
export async function listAuditEvents(
  sql: Sql,
  query: AuditFilters,
): Promise<{ events: AuditEvent[]; next: PageCursor | null }> {
  const { after } = query
  const rows = await sql<AuditRow[]>`
    select ${eventColumns(sql)} from ${actorsJoined(sql)}
     where e.workspace_id = ${query.workspaceId}
       ${query.action === undefined ? sql`` : sql`and e.action = ${query.action}`}
       ${query.targetId === undefined ? sql`` : sql`and e.target_id = ${query.targetId}::uuid`}
       ${
         query.actor === undefined
           ? sql``
           : sql`and (lower(p.email) = lower(${query.actor}) or k.prefix = ${query.actor})`
       }
       ${query.since === undefined ? sql`` : sql`and e.at >= ${query.since}::text::timestamptz`}
       ${query.until === undefined ? sql`` : sql`and e.at < ${query.until}::text::timestamptz`}
       ${
         after === undefined
           ? sql``
           : sql`and (e.at, e.id) < (${instantAt(sql, after.deployedAtMicros)}, ${after.id}::uuid)`
       }
     order by e.at desc, e.id desc
     limit ${query.limit + 1}`
  const { page, next } = pageOf(rows, query.limit, (last) => ({
    deployedAtMicros: BigInt(last.atMicros),
    id: last.id,
  }))
  return { events: page.map(({ atMicros: _, ...event }) => event), next }
}

/** The history of one deployment, incident or key of the workspace, newest first (at most 50). */
export async function auditEventsOf(
  sql: Sql,
  workspaceId: string,
  targetIds: readonly string[],
): Promise<AuditEvent[]> {
  const rows = await sql<AuditRow[]>`
    select ${eventColumns(sql)} from ${actorsJoined(sql)}
     where e.target_id = any(${targetIds}::uuid[]) and e.workspace_id = ${workspaceId}
     order by e.at desc, e.id desc
     limit 50`
  return rows.map(({ atMicros: _, ...event }) => event)
}
