// What a delivery from an alerting tool means for Shiplog: an incident of an environment (and
// perhaps an application) that the sender knows by its own key. Two kinds, by how the sender
// tells it:
// - a state change at a time (PagerDuty, Opsgenie, a CDEvent incident): the incident's state is
//   that of the latest change by the sender's clock, whatever order changes arrive in;
// - a snapshot of an alert group (Alertmanager): each alert by its fingerprint and start, firing
//   or resolved; the group's incidents are derived from every snapshot seen (alert-groups.ts).

import { type Delivery, type IntegrationMapping, mappedValue } from './mapping.ts'

/** Who the incident is of, and what the sender calls and shows it as. */
export interface IncidentSubject {
  /** The sender's id of the incident (or alert group). */
  senderKey: string
  environment: string
  app: string | null
  title: string
  /** The sender's own page of it. */
  url: string | null
}

/** An alert of an Alertmanager group, as a notification lists it. */
export interface GroupAlert {
  fingerprint: string
  startsAt: string
  /** When it was seen resolved; null while it fires. */
  endsAt: string | null
}

export type IncidentOutcome =
  | {
      outcome: 'incident'
      subject: IncidentSubject
      /** When the sender says the incident began. */
      startedAt: string
      /** The change this delivery reports, and when it happened by the sender's clock. */
      state: 'open' | 'resolved'
      at: string
    }
  | {
      outcome: 'alert-group'
      subject: IncidentSubject
      alerts: GroupAlert[]
      /** The whole group resolved, at the latest end of its listed alerts (it may list only some). */
      groupResolvedAt: string | null
    }

/** Fields an incident's mapping may set, with the sender's defaults (paths) after them. */
export interface IncidentDefaults {
  environment: string[]
  app: string[]
}

/**
 * The environment and application of an incident under the mapping: the mapping's first, then
 * the sender's defaults; a reason when no environment is found.
 */
export function incidentPlace(
  delivery: Delivery,
  mapping: IntegrationMapping,
  defaults: IncidentDefaults,
): { environment: string; app: string | null } | { reason: string } {
  const from = (paths: string[]) => paths.map((path) => ({ from: path }))
  const environment =
    mappedValue(mapping.environment, delivery) ?? mappedValue(from(defaults.environment), delivery)
  const app = mappedValue(mapping.app, delivery) ?? mappedValue(from(defaults.app), delivery)
  if (environment === undefined) {
    return {
      reason: `no environment: none of ${defaults.environment.join(', ')} is set, and the integration's mapping gives none (set "environment" to a fixed value or a path)`,
    }
  }
  return { environment, app: app ?? null }
}

/** The first 200 code points of a title, as incidents keep it; a fallback when blank. */
export function incidentTitle(text: string | undefined, fallback: string): string {
  const trimmed = text?.replace(/\s+/g, ' ').trim()
  return [...(trimmed || fallback)].slice(0, 200).join('')
}

/**
 * A time as RFC 3339 in UTC with six fractional digits (so two compare as texts), from a text
 * time or milliseconds since the epoch; undefined when it is not one.
 */
export function instantOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value)
    // Six fractional digits, as for a text time: times are compared as texts of one width.
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString().replace('Z', '000Z')
  }
  if (typeof value !== 'string') return undefined
  // Up to nine fractional digits and any offset, as Go writes them: Date keeps milliseconds, so
  // the digits past them are kept by hand (a start must never move).
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i.exec(
    value.trim(),
  )
  if (!match) return undefined
  const [, whole, fraction = '', zone] = match
  const date = new Date(`${whole}${zone}`)
  if (Number.isNaN(date.getTime())) return undefined
  const micros = fraction.padEnd(6, '0').slice(0, 6)
  return `${date.toISOString().slice(0, 19)}.${micros}Z`
}

/** FNV-1a, 64 bits, of a text's UTF-8, in hex: a short stable name for a long one. */
export function fnv64(text: string): string {
  let hash = 0xcbf29ce484222325n
  for (const byte of new TextEncoder().encode(text)) {
    hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn
  }
  return hash.toString(16).padStart(16, '0')
}

/** A sender's key as stored: itself up to 200 characters, else its start and its hash. */
export const boundedKey = (key: string): string =>
  key.length <= 200 ? key : `${key.slice(0, 100)}…${fnv64(key)}`
