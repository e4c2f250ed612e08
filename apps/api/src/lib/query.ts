import type { FieldError } from '@shiplog/schema'
import type { Static, TObject } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { problems } from '../plugins/problem/index.ts'

/**
 * Parses a query string against a TypeBox object schema: converts numbers, applies defaults and
 * rejects unknown parameters, answering 422 with one error per bad parameter.
 */
export function parseQuery<T extends TObject>(
  schema: T,
  query: Record<string, unknown>,
): Static<T> {
  const converted = Value.Default(schema, Value.Convert(schema, { ...query }))
  const errors: FieldError[] = []
  for (const error of Value.Errors(schema, converted)) {
    const field = error.path.replace(/^\//, '') || 'query'
    if (errors.some((existing) => existing.field === field)) continue
    const message =
      error.message === 'Unexpected property'
        ? `is not a known query parameter (known: ${Object.keys(schema.properties).join(', ')})`
        : error.message.replace(/^Expected/, 'must be')
    errors.push({ field, message })
  }
  if (errors.length > 0) throw problems.validation(errors)
  return converted as Static<T>
}
