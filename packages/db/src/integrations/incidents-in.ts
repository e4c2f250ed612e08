// Incidents that alerting tools report (issue 46), applied in the worker's transaction. Whatever
// order a sender's deliveries arrive in, the incidents end the same:
// - a state change at a time (PagerDuty, Opsgenie, CDEvents): the latest by the sender's clock
//   sets open or resolved; the earliest start wins;
// - an Alertmanager group: every alert seen (alert_group_alerts, migration 0038) decides its
//   incidents, one per run of overlapping alerts (alertGroupEpisodes).
// A person's correction (a field in `corrected`) is never overwritten by a later delivery; the
// sender owns the rest: the start, the resolution, the title, the link and the cause it implies.

import { nameKey } from '@shiplog/schema'
import type { Fragment, Tx } from '../client.ts'
import { findEnvironmentId, hasApplication } from '../queries/incidents.ts'
import { uuidv7 } from '../uuidv7.ts'
import { type AlertRow, alertGroupEpisodes, type Episode, earliestOf } from './alert-episodes.ts'

/** Who an incident is of, what the sender calls it and shows it as. */
export interface ReportedIncident {
  workspaceId: string
  integrationId: string
  source: string
  senderKey: string
  environment: string
  app: string | null
  title: string
  url: string | null
}

/** What applying a delivery did, for its settlement; `ignored` with the reason when nothing. */
export type IncidentApplied =
  | { applied: true; summary: string }
  | { applied: false; reason: string }

interface Place {
  environmentId: string
  appKey: string | null
}

/** The incident's environment and application in the workspace, or why there is none. */
async function placeOf(tx: Tx, report: ReportedIncident): Promise<Place | { reason: string }> {
  const environmentId = await findEnvironmentId(tx, report.workspaceId, nameKey(report.environment))
  if (environmentId === undefined) {
    return {
      reason: `the environment '${report.environment}' has no recorded deployment in the workspace: an incident needs one (check the integration's mapping)`,
    }
  }
  if (report.app === null) return { environmentId, appKey: null }
  const appKey = nameKey(report.app)
  if (!(await hasApplication(tx, report.workspaceId, appKey))) {
    return {
      reason: `the application '${report.app}' has no recorded deployment in the workspace: an incident needs one (check the integration's mapping)`,
    }
  }
  return { environmentId, appKey }
}

/**
 * The deployment an incident that names none blames: the latest recorded one of its application
 * (any, when it names none) into its environment at or before its start.
 */
async function causeAt(
  tx: Tx,
  workspaceId: string,
  place: Place,
  startedAt: string,
): Promise<string | null> {
  const [row] =
    place.appKey === null
      ? await tx<{ id: string }[]>`
          select id from deployments
           where environment_id = ${place.environmentId} and voided_at is null
             and deployed_at <= ${startedAt}::timestamptz
           order by deployed_at desc limit 1`
      : await tx<{ id: string }[]>`
          select d.id from applications a
           cross join lateral (
             select id, deployed_at from deployments
              where application_id = a.id and environment_id = ${place.environmentId}
                and voided_at is null and deployed_at <= ${startedAt}::timestamptz
              order by deployed_at desc limit 1) d
           where a.workspace_id = ${workspaceId} and a.name_key = ${place.appKey}
           order by d.deployed_at desc limit 1`
  return row?.id ?? null
}

/**
 * A time column as RFC 3339 UTC with six fractional digits, as the readers write times
 * (incident.ts, instantOf): the same width, so comparing the texts compares the times.
 */
const micros = (tx: Tx, column: Fragment) =>
  tx`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/** One sender incident at a time: two workers never interleave its deliveries. */
async function lockIncident(tx: Tx, integrationId: string, senderKey: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtextextended(${`${integrationId} ${senderKey}`}, 46))`
}

interface StoredIncident {
  id: string
  senderStartedAt: string
  senderStateAt: string | null
  corrected: string[]
  resolvedAt: string | null
}

const stored = (tx: Tx, integrationId: string, senderKey: string) =>
  tx<StoredIncident[]>`
    select id, ${micros(tx, tx`sender_started_at`)} as "senderStartedAt",
           ${micros(tx, tx`sender_state_at`)} as "senderStateAt", corrected,
           ${micros(tx, tx`resolved_at`)} as "resolvedAt"
      from incidents
     where integration_id = ${integrationId} and sender_key = ${senderKey}
     order by sender_started_at, id`

/** What the sender sets of an incident, each unless a person corrected it. */
interface SenderFields {
  startedAt: string
  resolvedAt: string | null
  /** Undefined: as it is (a change older than the latest sets none). */
  title: string | undefined
  url: string | null | undefined
  stateAt: string | null
}

/** Resolved no earlier than it started (a check of incidents); null while open. */
const resolvedNotBefore = (tx: Tx, resolvedAt: string | null, startedAt: Fragment) =>
  resolvedAt === null
    ? tx`null::timestamptz`
    : tx`greatest(${resolvedAt}::timestamptz, ${startedAt})`

async function insertIncident(
  tx: Tx,
  report: ReportedIncident,
  place: Place,
  fields: SenderFields,
) {
  const id = uuidv7()
  const cause = await causeAt(tx, report.workspaceId, place, fields.startedAt)
  await tx`
    insert into incidents (id, workspace_id, environment_id, app, app_key, title, started_at,
                           resolved_at, cause_deployment_id, source, integration_id, sender_key,
                           sender_url, sender_started_at, sender_state_at)
    values (${id}, ${report.workspaceId}, ${place.environmentId}, ${report.app}, ${place.appKey},
            ${fields.title ?? report.title}, ${fields.startedAt}::timestamptz,
            ${resolvedNotBefore(tx, fields.resolvedAt, tx`${fields.startedAt}::timestamptz`)}, ${cause},
            ${report.source}, ${report.integrationId}, ${report.senderKey}, ${fields.url ?? null},
            ${fields.startedAt}::timestamptz, ${fields.stateAt}::timestamptz)`
  return id
}

async function updateIncident(
  tx: Tx,
  report: ReportedIncident,
  place: Place,
  incident: StoredIncident,
  fields: SenderFields,
) {
  const owns = (field: string) => !incident.corrected.includes(field)
  const startedAt = owns('startedAt') ? tx`${fields.startedAt}::timestamptz` : tx`started_at`
  const cause = owns('causeDeploymentId')
    ? await causeAt(tx, report.workspaceId, place, fields.startedAt)
    : undefined
  await tx`
    update incidents set
      sender_started_at = ${fields.startedAt}::timestamptz,
      sender_state_at = ${fields.stateAt}::timestamptz,
      sender_url = ${fields.url === undefined ? tx`sender_url` : fields.url},
      started_at = ${startedAt},
      resolved_at = ${owns('resolvedAt') ? resolvedNotBefore(tx, fields.resolvedAt, startedAt) : tx`resolved_at`},
      title = ${owns('title') && fields.title !== undefined ? fields.title : tx`title`},
      cause_deployment_id = ${cause === undefined ? tx`cause_deployment_id` : cause},
      updated_at = now()
     where id = ${incident.id}`
}

/** A state change (PagerDuty, Opsgenie, a CDEvent): the latest by the sender's clock wins. */
export async function applyIncidentState(
  tx: Tx,
  report: ReportedIncident,
  change: { startedAt: string; state: 'open' | 'resolved'; at: string },
): Promise<IncidentApplied> {
  const place = await placeOf(tx, report)
  if ('reason' in place) return { applied: false, reason: place.reason }
  await lockIncident(tx, report.integrationId, report.senderKey)
  const [incident] = await stored(tx, report.integrationId, report.senderKey)
  const resolvedAt = change.state === 'resolved' ? change.at : null
  if (!incident) {
    const id = await insertIncident(tx, report, place, {
      startedAt: change.startedAt,
      resolvedAt,
      title: report.title,
      url: report.url,
      stateAt: change.at,
    })
    return {
      applied: true,
      summary: `incident ${id} ${change.state === 'open' ? 'opened' : 'recorded resolved'}`,
    }
  }
  const startedAt = earliestOf(change.startedAt, incident.senderStartedAt)
  // At the same time a resolve wins over an open, so arrival order cannot decide between them.
  const newer =
    incident.senderStateAt === null ||
    change.at > incident.senderStateAt ||
    (change.at === incident.senderStateAt && change.state === 'resolved')
  await updateIncident(tx, report, place, incident, {
    startedAt,
    resolvedAt: newer ? resolvedAt : incident.resolvedAt,
    title: newer ? report.title : undefined,
    url: newer ? report.url : undefined,
    stateAt: newer ? change.at : incident.senderStateAt,
  })
  if (!newer) {
    return {
      applied: true,
      summary: `incident ${incident.id}: a change older than its latest one (${incident.senderStateAt}); its state stays`,
    }
  }
  const verb =
    change.state === 'resolved'
      ? 'resolved'
      : incident.resolvedAt === null
        ? 'kept open'
        : 'reopened'
  return { applied: true, summary: `incident ${incident.id} ${verb}` }
}

/** An Alertmanager notification: its alerts join the group's, whose incidents are derived anew. */
export async function applyAlertGroup(
  tx: Tx,
  report: ReportedIncident,
  alerts: { fingerprint: string; startsAt: string; endsAt: string | null }[],
  groupResolvedAt: string | null,
): Promise<IncidentApplied> {
  const place = await placeOf(tx, report)
  if ('reason' in place) return { applied: false, reason: place.reason }
  await lockIncident(tx, report.integrationId, report.senderKey)
  const seen = [
    ...alerts,
    ...(groupResolvedAt === null
      ? []
      : [{ fingerprint: '', startsAt: groupResolvedAt, endsAt: groupResolvedAt }]),
  ]
  // A resolution seen once stays: the earliest end of an alert is its end.
  await tx`
    insert into alert_group_alerts (integration_id, group_key, fingerprint, starts_at, ends_at)
    select ${report.integrationId}, ${report.senderKey}, fingerprint, starts_at, ends_at
      from unnest(${seen.map((alert) => alert.fingerprint)}::text[],
                  ${seen.map((alert) => alert.startsAt)}::timestamptz[],
                  ${seen.map((alert) => alert.endsAt)}::timestamptz[]) as a(fingerprint, starts_at, ends_at)
    on conflict (integration_id, group_key, fingerprint, starts_at) do update
      set ends_at = case when alert_group_alerts.ends_at is null then excluded.ends_at
                         when excluded.ends_at is null then alert_group_alerts.ends_at
                         else least(alert_group_alerts.ends_at, excluded.ends_at) end`
  const rows = await tx<AlertRow[]>`
    select fingerprint, ${micros(tx, tx`starts_at`)} as "startsAt", ${micros(tx, tx`ends_at`)} as "endsAt"
      from alert_group_alerts
     where integration_id = ${report.integrationId} and group_key = ${report.senderKey}`
  const episodes = alertGroupEpisodes(rows)
  const incidents = await stored(tx, report.integrationId, report.senderKey)
  const summaries: string[] = []
  for (const episode of episodes) {
    summaries.push(await syncEpisode(tx, report, place, episode, incidents))
  }
  return { applied: true, summary: summaries.join('; ') }
}

/**
 * Brings the incident of one run of alerts in line with it: the incidents that began within the
 * run are one (the earliest kept, the others merged into it), or a new one opens.
 */
async function syncEpisode(
  tx: Tx,
  report: ReportedIncident,
  place: Place,
  episode: Episode,
  incidents: StoredIncident[],
): Promise<string> {
  const within = incidents.filter(
    (incident) =>
      incident.senderStartedAt >= episode.startedAt &&
      incident.senderStartedAt <= episode.lastStart,
  )
  const fields = {
    startedAt: episode.startedAt,
    resolvedAt: episode.resolvedAt,
    title: report.title,
    url: report.url,
    stateAt: null,
  }
  const [kept, ...merged] = within
  if (!kept) {
    const id = await insertIncident(tx, report, place, fields)
    return `incident ${id} ${episode.resolvedAt === null ? 'opened' : 'recorded resolved'}`
  }
  if (merged.length > 0) {
    await tx`delete from incidents where id = any(${merged.map(({ id }) => id)}::uuid[])`
  }
  await updateIncident(tx, report, place, kept, fields)
  return `incident ${kept.id} ${episode.resolvedAt === null ? 'open' : 'resolved'}`
}
