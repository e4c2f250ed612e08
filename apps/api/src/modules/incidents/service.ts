import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import {
  type CauseDeployment,
  findCauseDeployment,
  findEnvironmentId,
  findIncident,
  type IncidentChanges,
  insertIncident,
  listIncidents,
  updateIncident,
} from '@shiplog/db/queries/incidents'
import {
  type BodyValue,
  encodeCursor,
  type FieldError,
  type Incident,
  IncidentInput,
  type IncidentPage,
  IncidentPatch,
  type Instant,
  instantFromDate,
  nameKey,
  parseDateTime,
  validateBody,
} from '@shiplog/schema'
import type { Static, TObject } from '@sinclair/typebox'
import { uuidv7 } from '../../lib/uuidv7.ts'
import { problems } from '../../plugins/problem/index.ts'
import type { ListIncidentsQuery } from './model.ts'

const NOT_FOUND =
  'No incident with this id in your workspace: use the id from the Location of its 201, with a key of the same workspace.'

function bodyOf(schema: TObject, body: unknown): Record<string, BodyValue | undefined> {
  const result = validateBody(schema, body)
  if (!result.ok) throw problems.validation(result.errors)
  return result.value
}

const text = (value: BodyValue | undefined) => value as string | undefined
const instant = (value: BodyValue | undefined) => value as Instant | null | undefined

/** The cause named by a body, checked against the incident's environment and application. */
async function causeOf(
  sql: Sql,
  owner: KeyOwner,
  id: string,
  where: { environmentId: string; appKey: string | null },
): Promise<CauseDeployment> {
  const cause = await findCauseDeployment(sql, owner.workspaceId, id)
  const refuse = (message: string): never => {
    throw problems.validation([{ field: 'causeDeploymentId', message }])
  }
  if (!cause) {
    return refuse(
      'is not a recorded deployment of your workspace: use the id of its 202, once its receipt says recorded',
    )
  }
  if (cause.environmentId !== where.environmentId) {
    return refuse(`was deployed to ${cause.environment}, not to this incident's environment`)
  }
  if (where.appKey !== null && cause.appKey !== where.appKey) {
    return refuse("is a deployment of another application than this incident's")
  }
  return cause
}

const microsOf = (iso: string) => {
  const parsed = parseDateTime(iso)
  if (!parsed.ok) throw new Error(`${iso} is not a date-time Shiplog rendered`)
  return parsed.instant.micros
}

function checkOrder(startedAt: string, resolvedAt: string | null): void {
  if (resolvedAt !== null && microsOf(resolvedAt) < microsOf(startedAt)) {
    const error: FieldError = { field: 'resolvedAt', message: 'must not be before startedAt' }
    throw problems.validation([error])
  }
}

/** Opens an incident from a `POST /v1/incidents` body; 422 for anything it cannot store. */
export async function openIncident(
  sql: Sql,
  owner: KeyOwner,
  body: unknown,
  receivedAt: Date,
): Promise<Incident> {
  const value = bodyOf(IncidentInput, body)
  const environment = text(value.environment) as string
  const environmentId = await findEnvironmentId(sql, owner.workspaceId, nameKey(environment))
  if (!environmentId) {
    throw problems.validation([
      {
        field: 'environment',
        message: 'has no deployments in your workspace: check its spelling, or record one first',
      },
    ])
  }
  const app = text(value.app) ?? null
  const appKey = app === null ? null : nameKey(app)
  const causeId = text(value.causeDeploymentId)
  const cause =
    causeId === undefined
      ? undefined
      : await causeOf(sql, owner, causeId, { environmentId, appKey })
  const startedAt =
    instant(value.startedAt)?.iso ?? cause?.deployedAt ?? instantFromDate(receivedAt).iso
  const resolvedAt = instant(value.resolvedAt)?.iso ?? null
  checkOrder(startedAt, resolvedAt)
  return insertIncident(sql, {
    id: uuidv7(),
    workspaceId: owner.workspaceId,
    environmentId,
    app,
    appKey,
    title: text(value.title) as string,
    startedAt,
    resolvedAt,
    causeDeploymentId: cause?.id ?? null,
    createdByKey: owner.keyId,
  })
}

/** Changes an incident from a `PATCH /v1/incidents/{id}` body: resolve, reopen, set a cause. */
export async function changeIncident(
  sql: Sql,
  owner: KeyOwner,
  id: string,
  body: unknown,
): Promise<Incident> {
  const value = bodyOf(IncidentPatch, body)
  const incident = await findIncident(sql, owner.workspaceId, id)
  if (!incident) throw problems.notFound(NOT_FOUND)
  const changes: IncidentChanges = {}
  if (value.title !== undefined) changes.title = text(value.title)
  if (value.startedAt !== undefined) changes.startedAt = instant(value.startedAt)?.iso
  if (value.resolvedAt !== undefined) changes.resolvedAt = instant(value.resolvedAt)?.iso ?? null
  if (value.causeDeploymentId === null) changes.causeDeploymentId = null
  else if (value.causeDeploymentId !== undefined) {
    const cause = await causeOf(sql, owner, text(value.causeDeploymentId) as string, incident)
    changes.causeDeploymentId = cause.id
  }
  if (value.fixedByDeploymentId === null) changes.fixedByDeploymentId = null
  else if (value.fixedByDeploymentId !== undefined) {
    const fix = await findCauseDeployment(
      sql,
      owner.workspaceId,
      text(value.fixedByDeploymentId) as string,
    )
    if (!fix || fix.environmentId !== incident.environmentId) {
      throw problems.validation([
        {
          field: 'fixedByDeploymentId',
          message: "is not a recorded deployment of your workspace to this incident's environment",
        },
      ])
    }
    changes.fixedByDeploymentId = fix.id
  }
  checkOrder(
    changes.startedAt ?? incident.startedAt,
    changes.resolvedAt === undefined ? incident.resolvedAt : changes.resolvedAt,
  )
  const updated = await updateIncident(sql, owner.workspaceId, id, changes)
  if (!updated) throw problems.notFound(NOT_FOUND)
  return updated
}

/** `GET /v1/incidents/{id}`. */
export async function getIncident(sql: Sql, owner: KeyOwner, id: string): Promise<Incident> {
  const incident = await findIncident(sql, owner.workspaceId, id)
  if (!incident) throw problems.notFound(NOT_FOUND)
  const { environmentId: _, appKey: __, ...shown } = incident
  return shown
}

/** `GET /v1/incidents`: one page, latest startedAt first. */
export async function listWorkspaceIncidents(
  sql: Sql,
  owner: KeyOwner,
  query: Static<typeof ListIncidentsQuery>,
): Promise<IncidentPage> {
  const page = await listIncidents(sql, {
    workspaceId: owner.workspaceId,
    environmentKey: query.environment === undefined ? undefined : nameKey(query.environment),
    appKey: query.app === undefined ? undefined : nameKey(query.app),
    status: query.status,
    since: query.since?.iso,
    until: query.until?.iso,
    limit: query.limit ?? 50,
    after: query.cursor,
  })
  return {
    data: page.incidents,
    nextCursor: page.next ? encodeCursor(page.next) : null,
  }
}
