import type { Incident, PageCursor } from '@shiplog/schema'
import type { Queryable, Sql } from '../client.ts'
import { instantAt, pageOf } from '../read/keyset.ts'
import { type Actor, actorColumns } from './audit-events.ts'

/** What opening an incident stores; times are RFC 3339 as the schema package renders them. */
export interface NewIncident {
  id: string
  workspaceId: string
  environmentId: string
  app: string | null
  appKey: string | null
  title: string
  startedAt: string
  resolvedAt: string | null
  causeDeploymentId: string | null
  createdBy: Actor
}

/** A recorded deployment as a cause: where it went and when. */
export interface CauseDeployment {
  id: string
  environmentId: string
  environment: string
  appKey: string
  deployedAt: string
}

/** Which incidents of a workspace to list, latest `startedAt` first. */
export interface IncidentFilters {
  workspaceId: string
  environmentKey?: string
  appKey?: string
  status?: 'open' | 'resolved'
  since?: string
  until?: string
  limit: number
  after?: PageCursor
}

const columns = (sql: Queryable) => sql`
  i.id, case when i.resolved_at is null then 'open' else 'resolved' end as status,
  e.name as environment, i.app, i.title, iso_utc(i.started_at) as "startedAt",
  iso_utc(i.resolved_at) as "resolvedAt", i.cause_deployment_id as "causeDeploymentId",
  i.fixed_by_deployment_id as "fixedByDeploymentId", i.source, i.sender_url as "senderUrl",
  iso_utc(i.created_at) as "createdAt", iso_utc(i.updated_at) as "updatedAt"`

/** The id of an environment of the workspace by its name key: environments' unique name. */
export async function findEnvironmentId(
  sql: Queryable,
  workspaceId: string,
  environmentKey: string,
): Promise<string | undefined> {
  const [row] = await sql<{ id: string }[]>`
    select id::text from environments where workspace_id = ${workspaceId} and name_key = ${environmentKey}`
  return row?.id
}

/** True when the workspace has an application of this name (`nameKey`), in any repository. */
export async function hasApplication(
  sql: Queryable,
  workspaceId: string,
  appKey: string,
): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    select exists (select 1 from applications
                    where workspace_id = ${workspaceId} and name_key = ${appKey}) as found`
  return row?.found ?? false
}

/** A recorded deployment of the workspace by its id or a repeated delivery's receipt id. */
export async function findCauseDeployment(
  sql: Queryable,
  workspaceId: string,
  id: string,
): Promise<CauseDeployment | undefined> {
  const [row] = await sql<CauseDeployment[]>`
    select d.id, d.environment_id::text as "environmentId", e.name as environment,
           a.name_key as "appKey", iso_utc(d.deployed_at) as "deployedAt"
      from deployments d
      join applications a on a.id = d.application_id
      join environments e on e.id = d.environment_id
     where d.workspace_id = ${workspaceId} and d.voided_at is null
       and d.id = coalesce(
             (select deployment_id from deployment_aliases where id = ${id}::uuid), ${id}::uuid)`
  return row
}

/** Stores a new incident and returns it as the API shows it. */
export async function insertIncident(sql: Queryable, incident: NewIncident): Promise<Incident> {
  const by = actorColumns(incident.createdBy)
  const [row] = await sql<Incident[]>`
    with inserted as (
      insert into incidents (id, workspace_id, environment_id, app, app_key, title, started_at,
                             resolved_at, cause_deployment_id, created_by_key, created_by_person)
      values (${incident.id}, ${incident.workspaceId}, ${incident.environmentId}, ${incident.app},
              ${incident.appKey}, ${incident.title}, ${incident.startedAt}::text::timestamptz,
              ${incident.resolvedAt}::text::timestamptz, ${incident.causeDeploymentId},
              ${by.keyId}, ${by.personId})
      returning *)
    select ${columns(sql)} from inserted i join environments e on e.id = i.environment_id`
  if (!row) throw new Error('the incident was not stored')
  return row
}

/**
 * An incident of the workspace, with its environment's id (for checks on a cause); `lock` holds
 * its row until the caller's transaction ends, for a change checked against what it reads.
 */
export async function findIncident(
  sql: Queryable,
  workspaceId: string,
  id: string,
  lock = false,
): Promise<(Incident & { environmentId: string; appKey: string | null }) | undefined> {
  const [row] = await sql<(Incident & { environmentId: string; appKey: string | null })[]>`
    select ${columns(sql)}, i.environment_id::text as "environmentId", i.app_key as "appKey"
      from incidents i join environments e on e.id = i.environment_id
     where i.id = ${id}::uuid and i.workspace_id = ${workspaceId}
       ${lock ? sql`for update of i` : sql``}`
  return row
}

/** The fields a PATCH sets; absent ones stay. */
export interface IncidentChanges {
  title?: string
  startedAt?: string
  resolvedAt?: string | null
  causeDeploymentId?: string | null
  fixedByDeploymentId?: string | null
}

// The fields an alerting tool sets that a person's change takes over for good (incidents-in.ts):
// a later delivery of the same incident no longer sets them.
const SENDER_OWNED: (keyof IncidentChanges)[] = [
  'title',
  'startedAt',
  'resolvedAt',
  'causeDeploymentId',
]
const correctedFields = (changes: IncidentChanges) =>
  SENDER_OWNED.filter((field) => changes[field] !== undefined)

/** Applies `changes` to an incident of the workspace and returns it as it is now. */
export async function updateIncident(
  sql: Queryable,
  workspaceId: string,
  id: string,
  changes: IncidentChanges,
): Promise<Incident | undefined> {
  const set = (column: string, value: unknown, cast = sql``) =>
    value === undefined ? sql`` : sql`, ${sql(column)} = ${value as string}${cast}`
  const [row] = await sql<Incident[]>`
    with updated as (
      update incidents set updated_at = now()
        ${set('title', changes.title)}
        ${set('started_at', changes.startedAt, sql`::text::timestamptz`)}
        ${set('resolved_at', changes.resolvedAt, sql`::text::timestamptz`)}
        ${set('cause_deployment_id', changes.causeDeploymentId, sql`::uuid`)}
        ${set('fixed_by_deployment_id', changes.fixedByDeploymentId, sql`::uuid`)}
        , corrected = array(select distinct unnest(corrected || ${correctedFields(changes)}::text[]) order by 1)
       where id = ${id}::uuid and workspace_id = ${workspaceId}
      returning *)
    select ${columns(sql)} from updated i join environments e on e.id = i.environment_id`
  return row
}

/**
 * One page of a workspace's incidents, latest startedAt first: a backward walk of
 * incidents_newest (workspace, startedAt, id), filters applied to the rows it meets.
 */
export async function listIncidents(
  sql: Sql,
  query: IncidentFilters,
): Promise<{ incidents: Incident[]; next: PageCursor | null }> {
  const { after } = query
  const rows = await sql<(Incident & { startedAtMicros: string })[]>`
    select ${columns(sql)},
           ((extract(epoch from i.started_at) * 1000000)::bigint)::text as "startedAtMicros"
      from incidents i join environments e on e.id = i.environment_id
     where i.workspace_id = ${query.workspaceId}
       ${query.environmentKey === undefined ? sql`` : sql`and e.name_key = ${query.environmentKey}`}
       ${query.appKey === undefined ? sql`` : sql`and i.app_key = ${query.appKey}`}
       ${query.status === 'open' ? sql`and i.resolved_at is null` : sql``}
       ${query.status === 'resolved' ? sql`and i.resolved_at is not null` : sql``}
       ${query.since === undefined ? sql`` : sql`and i.started_at >= ${query.since}::text::timestamptz`}
       ${query.until === undefined ? sql`` : sql`and i.started_at < ${query.until}::text::timestamptz`}
       ${
         after === undefined
           ? sql``
           : sql`and (i.started_at, i.id) < (${instantAt(sql, after.deployedAtMicros)}, ${after.id}::uuid)`
       }
     order by i.started_at desc, i.id desc
     limit ${query.limit + 1}`
  const { page, next } = pageOf(rows, query.limit, (last) => ({
    deployedAtMicros: BigInt(last.startedAtMicros),
    id: last.id,
  }))
  return { incidents: page.map(({ startedAtMicros: _, ...incident }) => incident), next }
}
