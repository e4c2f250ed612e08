import { codePointLength, hasControlChar, hasLoneSurrogate } from './code-points.ts'
import { parseDateTime } from './date-time.ts'
import { DEPLOYED_AT_MAX_FUTURE_MS, type DeploymentFields, DeploymentInput } from './deployment.ts'
import type { FieldError } from './problem.ts'
import { suggestField } from './suggest.ts'

export type ValidationResult =
  | { ok: true; value: DeploymentFields }
  | { ok: false; errors: FieldError[] }

type FieldName = keyof typeof DeploymentInput.properties

// Failures are objects, successes are the normalized string (or null), so the success path
// allocates nothing. Fixed messages are shared constants for the same reason.
type Invalid = { error: string }
type Outcome = string | null | Invalid
type FormatRule = (trimmed: string, nowMs: number) => Outcome

const invalid = (error: string): Invalid => ({ error })
const IS_REQUIRED = invalid('is required')
const NOT_EMPTY = invalid('must not be empty')
const NOT_STRING = invalid('must be a string')
const CONTROL_CHARS = invalid('must not contain control characters')
const LONE_SURROGATE = invalid('must not contain unpaired surrogates (invalid Unicode)')
const NOT_OBJECT: FieldError = { field: 'body', message: 'must be a JSON object' }

function schemaPattern(name: FieldName): RegExp {
  const schema: { pattern?: string } = DeploymentInput.properties[name]
  if (schema.pattern === undefined) throw new Error(`DeploymentInput.${name} has no pattern`)
  return new RegExp(schema.pattern, 'u')
}

const REPOSITORY_FULL_NAME = schemaPattern('repositoryFullName')
const COMMIT_HASH = schemaPattern('commitHash')
const BAD_REPOSITORY = invalid('must look like owner/repo-name')
const BAD_COMMIT = invalid(
  'must be 7 to 70 hexadecimal characters: the full Git commit SHA (was a template variable left unexpanded?)',
)
const BAD_DATE_SYNTAX = invalid(
  'must be an RFC 3339 date-time with a time zone, for example 2026-05-01T12:00:00Z',
)
const BAD_DATE_RANGE = invalid(
  'must be a real date and time: from 0001-01-01T00:00:00Z to year 9999, a day that exists in that month, hour 00-23, minute and second 00-59, offset hours 00-14',
)
const TOO_FAR_AHEAD = invalid(
  `must not be more than ${DEPLOYED_AT_MAX_FUTURE_MS / 60_000} minutes in the future`,
)
const ABSOLUTE_PATH = invalid("must be a relative path: remove the leading '/'")
const PARENT_SEGMENT = invalid("must be a relative path without '..' segments")
const EMPTY_SEGMENT = invalid("must not contain empty segments ('//')")

const SLASH = 0x2f

function monorepoPath(trimmed: string): Outcome {
  if (trimmed.charCodeAt(0) === SLASH) return ABSOLUTE_PATH
  let start = 0
  while (trimmed.startsWith('./', start)) start += 2
  let end = trimmed.length
  while (end > start && trimmed.charCodeAt(end - 1) === SLASH) end--
  const path = trimmed.slice(start, end)
  // `.` alone is the repository root, the same as `./`.
  if (path === '' || path === '.') return null
  let emptySegment = false
  for (const segment of path.split('/')) {
    if (segment === '..') return PARENT_SEGMENT
    if (segment === '') emptySegment = true
  }
  return emptySegment ? EMPTY_SEGMENT : path
}

const FORMAT_RULES: Partial<Record<FieldName, FormatRule>> = {
  repositoryFullName: (v) => (REPOSITORY_FULL_NAME.test(v) ? v : BAD_REPOSITORY),
  commitHash: (v) => (COMMIT_HASH.test(v) ? v.toLowerCase() : BAD_COMMIT),
  deployedAt: (v, nowMs) => {
    const parsed = parseDateTime(v)
    if (!parsed.ok) return parsed.reason === 'syntax' ? BAD_DATE_SYNTAX : BAD_DATE_RANGE
    return parsed.epochMs > nowMs + DEPLOYED_AT_MAX_FUTURE_MS ? TOO_FAR_AHEAD : v
  },
  monorepoPath,
}

interface Field {
  name: FieldName
  required: boolean
  maxLength: number | undefined
  rule: FormatRule | undefined
}

// The schema is the source of truth for field names, required-ness and length limits.
const REQUIRED: ReadonlySet<string> = new Set(DeploymentInput.required)
const FIELDS: readonly Field[] = Object.entries(DeploymentInput.properties).map(
  ([name, schema]) => ({
    name: name as FieldName,
    required: REQUIRED.has(name),
    maxLength: schema.maxLength,
    rule: FORMAT_RULES[name as FieldName],
  }),
)
const KNOWN_NAMES: readonly string[] = FIELDS.map((f) => f.name)
const KNOWN: ReadonlySet<string> = new Set(KNOWN_NAMES)

function checkField(field: Field, raw: unknown, nowMs: number): Outcome {
  if (raw === undefined || raw === null) return field.required ? IS_REQUIRED : null
  if (typeof raw !== 'string') return NOT_STRING
  if (hasControlChar(raw)) return CONTROL_CHARS
  if (hasLoneSurrogate(raw)) return LONE_SURROGATE
  const trimmed = raw.trim()
  if (trimmed === '') return field.required ? NOT_EMPTY : null
  // Code points never outnumber UTF-16 units, so short strings skip the count.
  if (field.maxLength !== undefined && trimmed.length > field.maxLength) {
    const length = codePointLength(trimmed)
    if (length > field.maxLength) {
      return invalid(`must be at most ${field.maxLength} characters (got ${length})`)
    }
  }
  return field.rule === undefined ? trimmed : field.rule(trimmed, nowMs)
}

function unknownField(key: string): FieldError {
  const suggestion = suggestField(key, KNOWN_NAMES)
  const hint = suggestion === undefined ? '' : `; did you mean "${suggestion}"?`
  return { field: key, message: `is not a known field${hint}` }
}

/**
 * Validates and normalizes a parsed JSON deployment body. Reports every failing field at once,
 * at most one error per field; `now` bounds how far in the future `deployedAt` may be.
 */
export function validateDeployment(body: unknown, now: Date): ValidationResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ ...NOT_OBJECT }] }
  }
  const input = body as Record<string, unknown>
  const nowMs = now.getTime()
  const errors: FieldError[] = []
  const value: Record<string, string | null> = {}
  for (const field of FIELDS) {
    const raw = Object.hasOwn(input, field.name) ? input[field.name] : undefined
    const outcome = checkField(field, raw, nowMs)
    if (outcome !== null && typeof outcome === 'object') {
      errors.push({ field: field.name, message: outcome.error })
    } else {
      value[field.name] = outcome
    }
  }
  for (const key of Object.keys(input)) {
    if (!KNOWN.has(key)) errors.push(unknownField(key))
  }
  if (errors.length > 0) return { ok: false, errors }
  return { ok: true, value: value as DeploymentFields }
}
