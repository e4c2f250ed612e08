import type { TObject } from '@sinclair/typebox'
import type { Checked } from './checked.ts'
import type { Instant } from './date-time.ts'
import { IncidentInput, IncidentPatch } from './incident.ts'
import type { FieldError } from './problem.ts'
import { notAhead } from './reported-time.ts'
import { isInvalid } from './text.ts'
import { type BodyValue, validateBody } from './validate-body.ts'

/** A `POST /v1/incidents` body, checked: its times parsed. */
export interface IncidentInputFields {
  environment: string
  app?: string
  title: string
  startedAt?: Instant
  resolvedAt?: Instant
  causeDeploymentId?: string
}

/** A `PATCH /v1/incidents/{id}` body, checked: a field left out is not changed, null clears it. */
export interface IncidentPatchFields {
  title?: string
  startedAt?: Instant
  resolvedAt?: Instant | null
  causeDeploymentId?: string | null
  fixedByDeploymentId?: string | null
}

/**
 * An incident body against its schema, then its times: like a deployment's, at most a clock skew
 * ahead of the request (an incident is reported, never planned).
 */
function validateIncidentBody(
  schema: TObject,
  body: unknown,
  receivedAt: Date,
): Checked<Record<string, BodyValue | undefined>> {
  const result = validateBody(schema, body)
  if (!result.ok) return result
  const nowMicros = BigInt(receivedAt.getTime()) * 1000n
  const errors: FieldError[] = []
  for (const field of ['startedAt', 'resolvedAt']) {
    const given = result.value[field] as Instant | null | undefined
    const checked = given ? notAhead(given, nowMicros) : given
    if (isInvalid(checked)) errors.push({ field, message: checked.error })
  }
  return errors.length > 0 ? { ok: false, errors } : result
}

// validateBody gives each field the type its schema declares (text, a date-time's instant, or
// null where allowed), so the checked record is the interface of that schema.

/** Checks a `POST /v1/incidents` body (`IncidentInput`). */
export const validateIncidentInput = (body: unknown, receivedAt: Date) =>
  validateIncidentBody(IncidentInput, body, receivedAt) as Checked<IncidentInputFields>

// In a PATCH, null clears a field; a field that cannot be cleared refuses it rather than reading
// it as left out, so `{"title": null}` is not taken for a change that changes nothing.
const UNCLEARABLE = ['title', 'startedAt'] as const

/** Checks a `PATCH /v1/incidents/{id}` body (`IncidentPatch`). */
export function validateIncidentPatch(
  body: unknown,
  receivedAt: Date,
): Checked<IncidentPatchFields> {
  const result = validateIncidentBody(IncidentPatch, body, receivedAt)
  const sent = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  const cleared: FieldError[] = UNCLEARABLE.filter((field) => sent[field] === null).map(
    (field) => ({ field, message: 'cannot be cleared: send a new value, or leave it out' }),
  )
  if (cleared.length === 0) return result as Checked<IncidentPatchFields>
  return { ok: false, errors: [...(result.ok ? [] : result.errors), ...cleared] }
}
