import type { Queryable, Sql } from '@shiplog/db/client'
import { type Actor, recordAuditEvent } from '@shiplog/db/queries/audit-events'
import {
  type CauseDeployment,
  findCauseDeployment,
  findEnvironmentId,
  findIncident,
  hasApplication,
  type IncidentChanges,
  insertIncident,
  listIncidents,
  updateIncident,
} from '@shiplog/db/queries/incidents'
import { uuidv7 } from '@shiplog/db/uuidv7'
import {
  encodeCursor,
  type FieldError,
  type Incident,
  type IncidentInputFields,
  type IncidentPage,
  type IncidentPatchFields,
  instantFromDate,
  type ListIncidentsQuery,
  nameKey,
  parseDateTime,
} from '@shiplog/schema'
import { problems } from '../../kernel/problems.ts'
import type { Workspace } from '../../kernel/workspace.ts'

const NOT_FOUND =
  'No incident with this id in your workspace: use the id from the Location of its 201, with a key of the same workspace.'

/** The cause named by a body, checked against the incident's environment and application. */
async function causeOf(
  sql: Queryable,
  owner: Workspace,
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

/**
 * Opens an incident from a checked `POST /v1/incidents` body, recording who in the audit trail (one
 * transaction); 422 for anything it cannot store.
 */
export async function openIncident(
  sql: Sql,
  owner: Workspace,
  actor: Actor,
  fields: IncidentInputFields,
  receivedAt: Date,
): Promise<Incident> {
  const { environment } = fields
  const environmentId = await findEnvironmentId(sql, owner.workspaceId, nameKey(environment))
  if (!environmentId) {
    throw problems.validation([
      {
        field: 'environment',
        message: 'has no deployments in your workspace: check its spelling, or record one first',
      },
    ])
  }
  const app = fields.app ?? null
  const appKey = app === null ? null : nameKey(app)
  if (appKey !== null && !(await hasApplication(sql, owner.workspaceId, appKey))) {
    throw problems.validation([
      {
        field: 'app',
        message:
          'is not an application of your workspace: its first recorded deployment creates it (POST /v1/deployments, or shiplog notify); check its spelling, or omit app for the whole environment',
      },
    ])
  }
  const causeId = fields.causeDeploymentId
  const cause =
    causeId === undefined
      ? undefined
      : await causeOf(sql, owner, causeId, { environmentId, appKey })
  const startedAt = fields.startedAt?.iso ?? cause?.deployedAt ?? instantFromDate(receivedAt).iso
  const resolvedAt = fields.resolvedAt?.iso ?? null
  checkOrder(startedAt, resolvedAt)
  const { title } = fields
  return sql.begin(async (tx) => {
    const incident = await insertIncident(tx, {
      id: uuidv7(),
      workspaceId: owner.workspaceId,
      environmentId,
      app,
      appKey,
      title,
      startedAt,
      resolvedAt,
      causeDeploymentId: cause?.id ?? null,
      createdBy: actor,
    })
    await recordAuditEvent(tx, {
      workspaceId: owner.workspaceId,
      actor,
      action: 'incident.opened',
      targetId: incident.id,
      details: { title, environment: incident.environment, app },
    })
    return incident
  })
}

/** The incident as the API shows it, without what the checks use. */
function shownOf(incident: Incident & { environmentId: string; appKey: string | null }): Incident {
  const { environmentId: _, appKey: __, ...shown } = incident
  return shown
}

/** The changes that change something: a field sent with the value it already has is left out. */
function effectiveChanges(requested: IncidentChanges, incident: Incident): IncidentChanges {
  const current: Required<IncidentChanges> = {
    title: incident.title,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    causeDeploymentId: incident.causeDeploymentId,
    fixedByDeploymentId: incident.fixedByDeploymentId,
  }
  return Object.fromEntries(
    Object.entries(requested).filter(
      ([field, value]) => value !== current[field as keyof IncidentChanges],
    ),
  )
}

/**
 * Changes an incident from a checked `PATCH /v1/incidents/{id}` body (resolve, reopen, set a cause),
 * recording who and which fields in the audit trail. Read, checked and written in one
 * transaction with the incident's row locked: two changes at once apply one after the other, each
 * checked against what the other left (a start moved past the other's resolution is a 422). A
 * body that changes nothing writes and records nothing.
 */
export async function changeIncident(
  sql: Sql,
  owner: Workspace,
  actor: Actor,
  id: string,
  value: IncidentPatchFields,
): Promise<Incident> {
  return sql.begin(async (tx) => {
    const incident = await findIncident(tx, owner.workspaceId, id, true)
    if (!incident) throw problems.notFound(NOT_FOUND)
    const requested: IncidentChanges = {}
    if (value.title !== undefined) requested.title = value.title
    if (value.startedAt !== undefined) requested.startedAt = value.startedAt.iso
    if (value.resolvedAt !== undefined) requested.resolvedAt = value.resolvedAt?.iso ?? null
    if (value.causeDeploymentId === null) requested.causeDeploymentId = null
    else if (value.causeDeploymentId !== undefined) {
      const cause = await causeOf(tx, owner, value.causeDeploymentId, incident)
      requested.causeDeploymentId = cause.id
    }
    if (value.fixedByDeploymentId === null) requested.fixedByDeploymentId = null
    else if (value.fixedByDeploymentId !== undefined) {
      const fix = await findCauseDeployment(tx, owner.workspaceId, value.fixedByDeploymentId)
      if (!fix || fix.environmentId !== incident.environmentId) {
        throw problems.validation([
          {
            field: 'fixedByDeploymentId',
            message:
              "is not a recorded deployment of your workspace to this incident's environment",
          },
        ])
      }
      requested.fixedByDeploymentId = fix.id
    }
    const changes = effectiveChanges(requested, incident)
    checkOrder(
      changes.startedAt ?? incident.startedAt,
      changes.resolvedAt === undefined ? incident.resolvedAt : changes.resolvedAt,
    )
    if (Object.keys(changes).length === 0) return shownOf(incident)
    const updated = await updateIncident(tx, owner.workspaceId, id, changes)
    if (!updated) throw problems.notFound(NOT_FOUND)
    await recordAuditEvent(tx, {
      workspaceId: owner.workspaceId,
      actor,
      action: 'incident.changed',
      targetId: id,
      details: changes as Record<string, string | null>,
    })
    return updated
  })
}

/** `GET /v1/incidents/{id}`. */
export async function getIncident(sql: Sql, owner: Workspace, id: string): Promise<Incident> {
  const incident = await findIncident(sql, owner.workspaceId, id)
  if (!incident) throw problems.notFound(NOT_FOUND)
  return shownOf(incident)
}

/** `GET /v1/incidents`: one page, latest startedAt first. */
export async function listWorkspaceIncidents(
  sql: Sql,
  owner: Workspace,
  query: ListIncidentsQuery,
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
