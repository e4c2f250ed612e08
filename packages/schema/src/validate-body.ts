import type { TObject, TSchema } from '@sinclair/typebox'
import type { Instant } from './date-time.ts'
import { isFormatName, parseFormat } from './formats.ts'
import type { FieldError } from './problem.ts'
import { suggestField } from './suggest.ts'
import { checkText, isInvalid } from './text.ts'

/** A field's parsed value: text, a date-time's instant, or null where the schema allows it. */
export type BodyValue = string | Instant | null

export type BodyResult =
  | { ok: true; value: Record<string, BodyValue | undefined> }
  | { ok: false; errors: FieldError[] }

interface StringSchema {
  maxLength?: number
  format?: string
}

/** The string schema of a property, and whether it may be null (a union with Null). */
function describe(schema: TSchema): { text: StringSchema; nullable: boolean } {
  const variants: TSchema[] = schema.anyOf ?? [schema]
  const text = variants.find((variant) => variant.type === 'string') as StringSchema
  return { text, nullable: variants.some((variant) => variant.type === 'null') }
}

/**
 * Validates a parsed JSON body of string fields against a TypeBox object schema (the one its
 * OpenAPI document shows): every failing field at once, at most one error each, unknown fields
 * named with the likeliest intended one. Text follows `checkText`; a `date-time` or `uuid`
 * format parses as the query string's parameters do.
 */
export function validateBody(schema: TObject, body: unknown): BodyResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] }
  }
  const input = body as Record<string, unknown>
  const required = new Set(schema.required ?? [])
  const errors: FieldError[] = []
  const value: Record<string, BodyValue | undefined> = {}
  for (const [name, property] of Object.entries<TSchema>(schema.properties)) {
    const raw = Object.hasOwn(input, name) ? input[name] : undefined
    const { text, nullable } = describe(property)
    if (raw === undefined || (raw === null && !nullable)) {
      if (required.has(name)) errors.push({ field: name, message: 'is required' })
      continue
    }
    if (raw === null) {
      value[name] = null
      continue
    }
    if (typeof raw !== 'string') {
      errors.push({ field: name, message: 'must be a string' })
      continue
    }
    const checked = checkText(raw, text.maxLength)
    if (isInvalid(checked)) errors.push({ field: name, message: checked.error })
    else if (checked === '') errors.push({ field: name, message: 'must not be empty' })
    else if (
      isFormatName(text.format) &&
      text.format !== 'cursor' &&
      text.format !== 'commit-cursor'
    ) {
      const parsed = parseFormat(text.format, checked, text.maxLength)
      if (isInvalid(parsed)) errors.push({ field: name, message: parsed.error })
      else value[name] = parsed
    } else value[name] = checked
  }
  const known = Object.keys(schema.properties)
  for (const key of Object.keys(input)) {
    if (known.includes(key)) continue
    const suggestion = suggestField(key, known)
    const hint = suggestion === undefined ? '' : `; did you mean "${suggestion}"?`
    errors.push({ field: key, message: `is not a known field${hint}` })
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value }
}
