import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox'
import type { Instant } from './date-time.ts'
import { isFormatName, parseFormat } from './formats.ts'
import type { PageCursor } from './page-cursor.ts'
import type { FieldError } from './problem.ts'
import { checkText, invalid, isInvalid, type Outcome } from './text.ts'

/**
 * A `since` or `until` parameter: a plain date (its midnight UTC) or an RFC 3339 date-time,
 * handed to code as an `Instant`. Published as either format; parsed by `date-or-date-time`.
 */
export const DateTimeParameter = (description: string) =>
  Type.Unsafe<Instant>({
    type: 'string',
    anyOf: [{ format: 'date' }, { format: 'date-time' }],
    parameterFormat: 'date-or-date-time',
    description,
  })

/** A page cursor parameter: documented as an opaque string, handed to code decoded. */
export const CursorParameter = (description: string) =>
  Type.Unsafe<PageCursor>({ type: 'string', format: 'cursor', maxLength: 200, description })

/** The query of an endpoint that takes no parameters: any given is refused, not ignored. */
export const NoQuery = Type.Object({}, { additionalProperties: false })
export type NoQuery = Static<typeof NoQuery>

/** The page parameters every list takes: its size, and where the previous page ended. */
export const PageParameters = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Page size, at most 100' }),
  ),
  cursor: Type.Optional(CursorParameter('`nextCursor` of the previous page')),
}

/** An optional name filter: an application, environment or repository, matched in any case. */
export const NameParameter = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 255, format: 'name', description }))

// Every required parameter carries an example: contract-testing tools (Dredd) send it.

/** A required environment, as the metrics take it. */
export const EnvironmentParameter = Type.String({
  minLength: 1,
  maxLength: 255,
  format: 'name',
  description: 'The environment (any case), e.g. production',
  examples: ['production'],
})

/** The path of a resource named by its id: `description` says where the id comes from. */
export const IdParameters = (description: string) =>
  Type.Object({
    id: Type.String({
      format: 'uuid',
      description,
      examples: ['0190f3c4-5b2e-7c1d-9e8f-a1b2c3d4e5f6'],
    }),
  })

/** Where parameters come from: a query string, or a router's path parameters. */
export type ParameterSource = URLSearchParams | Record<string, unknown>

export type ParametersResult<T extends TObject> =
  | { ok: true; value: Static<T> }
  | { ok: false; errors: FieldError[] }

const NOT_EMPTY = invalid('must not be empty')
const IS_REQUIRED = invalid('is required')
const NOT_TEXT = invalid('must be text (percent-encoded UTF-8)')
const WHOLE_NUMBER = /^[+-]?\d{1,16}$/

const patterns = new WeakMap<TSchema, RegExp>()
function patternOf(schema: TSchema & { pattern: string }): RegExp {
  let pattern = patterns.get(schema)
  if (!pattern) {
    pattern = new RegExp(schema.pattern, 'u')
    patterns.set(schema, pattern)
  }
  return pattern
}

// Every parameter is one of three kinds: text (with an optional pattern and format), a whole
// number in a range, or one of a few literals. Anything else is a programming error, caught by
// the first request in any test rather than silently accepted.
function parseValue(name: string, schema: TSchema, raw: string): Outcome<unknown> {
  if (schema.type === 'integer') {
    const { minimum = Number.MIN_SAFE_INTEGER, maximum = Number.MAX_SAFE_INTEGER } = schema
    const trimmed = raw.trim()
    const n = WHOLE_NUMBER.test(trimmed) ? Number(trimmed) : Number.NaN
    return n >= minimum && n <= maximum
      ? n
      : invalid(`must be a whole number from ${minimum} to ${maximum}`)
  }
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((option: TSchema) => 'const' in option)) {
    const allowed: string[] = schema.anyOf.map((option: TSchema) => option.const)
    const trimmed = raw.trim()
    return allowed.includes(trimmed) ? trimmed : invalid(`must be one of ${allowed.join(', ')}`)
  }
  if (schema.type !== 'string') throw new Error(`parameter ${name} has a schema of no known kind`)
  const text = checkText(raw, schema.maxLength)
  if (isInvalid(text)) return text
  if (text === '') return NOT_EMPTY
  if (
    typeof schema.pattern === 'string' &&
    !patternOf(schema as TSchema & { pattern: string }).test(text)
  ) {
    return invalid(schema.errorMessage ?? `must match ${schema.pattern}`)
  }
  // A parameter whose published format is a choice names the parser of its own.
  const format = schema.parameterFormat ?? schema.format
  return isFormatName(format) ? parseFormat(format, text, schema.maxLength) : text
}

function valuesOf(source: ParameterSource, name: string): unknown[] {
  if (source instanceof URLSearchParams) return source.getAll(name)
  return Object.hasOwn(source, name) ? [source[name]] : []
}

function namesOf(source: ParameterSource): string[] {
  return source instanceof URLSearchParams ? [...new Set(source.keys())] : Object.keys(source)
}

/**
 * Parses query or path parameters against a TypeBox object schema, with the same rules as a
 * deployment body (text, formats, limits), into typed values: `Instant`s, decoded cursors,
 * numbers. Reports every bad parameter at once: unknown ones, repeated ones, missing ones.
 */
export function parseParameters<T extends TObject>(
  schema: T,
  source: ParameterSource,
): ParametersResult<T> {
  const errors: FieldError[] = []
  const value: Record<string, unknown> = {}
  const required = new Set(schema.required ?? [])
  for (const [name, property] of Object.entries<TSchema>(schema.properties)) {
    const given = valuesOf(source, name)
    let outcome: Outcome<unknown>
    if (given.length > 1) outcome = invalid(`is given ${given.length} times; give it once`)
    else if (given.length === 0 || given[0] === undefined) {
      if (property.default !== undefined) value[name] = property.default
      else if (required.has(name)) errors.push({ field: name, message: IS_REQUIRED.error })
      continue
    } else outcome = typeof given[0] === 'string' ? parseValue(name, property, given[0]) : NOT_TEXT
    if (isInvalid(outcome)) errors.push({ field: name, message: outcome.error })
    else value[name] = outcome
  }
  const known = Object.keys(schema.properties)
  for (const name of namesOf(source)) {
    if (Object.hasOwn(schema.properties, name)) continue
    const list = known.length === 0 ? 'this endpoint takes none' : `known: ${known.join(', ')}`
    errors.push({ field: name, message: `is not a known query parameter (${list})` })
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: value as Static<T> }
}
