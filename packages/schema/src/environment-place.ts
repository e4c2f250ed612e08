import type { EnvironmentPlaceInput } from './catalog.ts'
import type { FieldError } from './problem.ts'
import { suggestField } from './suggest.ts'

const KNOWN = ['position', 'production']

/**
 * Checks the body of `PUT /v1/environments/{name}`: `position` a whole number from 0 to 1000,
 * `production` true or false, either `null` (back to the rule) or left out (unchanged); every
 * failing field at once, unknown ones named with the likeliest intended one.
 */
export function validateEnvironmentPlace(
  body: unknown,
): { ok: true; value: EnvironmentPlaceInput } | { ok: false; errors: FieldError[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] }
  }
  const input = body as Record<string, unknown>
  const errors: FieldError[] = []
  const value: EnvironmentPlaceInput = {}
  const { position, production } = input
  if (position !== undefined) {
    if (
      position === null ||
      (Number.isInteger(position) && Number(position) >= 0 && Number(position) <= 1000)
    ) {
      value.position = position as number | null
    } else {
      errors.push({ field: 'position', message: 'must be a whole number from 0 to 1000, or null' })
    }
  }
  if (production !== undefined) {
    if (production === null || typeof production === 'boolean') value.production = production
    else errors.push({ field: 'production', message: 'must be true, false or null' })
  }
  for (const key of Object.keys(input)) {
    if (KNOWN.includes(key)) continue
    const suggestion = suggestField(key, KNOWN)
    const hint = suggestion === undefined ? '' : `; did you mean "${suggestion}"?`
    errors.push({ field: key, message: `is not a known field${hint}` })
  }
  if (errors.length === 0 && Object.keys(value).length === 0) {
    errors.push({ field: 'body', message: 'must set position, production, or both' })
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value }
}
