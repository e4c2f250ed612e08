import { instantFromDate } from './date-time.ts'
import { type DeploymentFields, DeploymentInput } from './deployment.ts'
import { FORMATS } from './formats.ts'
import { checkName } from './names.ts'
import type { FieldError } from './problem.ts'
import { notAhead } from './reported-time.ts'
import { suggestField } from './suggest.ts'
import { checkText, type Invalid, invalid, isInvalid } from './text.ts'

export type ValidationResult =
  /** `deployedAtDefaulted`: the client sent no `deployedAt`, so it is the request time. */
  | { ok: true; value: DeploymentFields; deployedAtDefaulted: boolean }
  | { ok: false; errors: FieldError[] }

type FieldName = keyof typeof DeploymentInput.properties

// Failures are objects, successes are the normalized string (or null), so the success path
// allocates nothing. Fixed messages are shared constants for the same reason.
type Outcome = string | null | Invalid
type FormatRule = (trimmed: string, nowMicros: bigint) => Outcome

const IS_REQUIRED = invalid('is required')
const NOT_EMPTY = invalid('must not be empty')
const NOT_STRING = invalid('must be a string')
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
  // Normalised to the instant Postgres will store, rendered as it renders it back: the job
  // carries exactly what the worker writes, whatever precision or offset the client sent.
  deployedAt: (v, nowMicros) => {
    const instant = FORMATS['date-time'](v)
    if (isInvalid(instant)) return instant
    const reported = notAhead(instant, nowMicros)
    return isInvalid(reported) ? reported : reported.iso
  },
  monorepoPath,
}

interface Field {
  name: FieldName
  required: boolean
  maxLength: number | undefined
  rule: FormatRule | undefined
}

/** A name (`format: 'name'` in the schema) follows the names rule, then its field's own. */
function ruleOf(
  name: FieldName,
  format: string | undefined,
  maxLength: number | undefined,
): FormatRule | undefined {
  const own = FORMAT_RULES[name]
  if (format !== 'name') return own
  return (trimmed, nowMicros) => {
    const named = checkName(trimmed, maxLength)
    if (isInvalid(named) || own === undefined) return named
    return own(named, nowMicros)
  }
}

// The schema is the source of truth for field names, required-ness, length limits and names.
const REQUIRED: ReadonlySet<string> = new Set(DeploymentInput.required)
const FIELDS: readonly Field[] = Object.entries(DeploymentInput.properties).map(
  ([name, schema]) => ({
    name: name as FieldName,
    required: REQUIRED.has(name),
    maxLength: schema.maxLength,
    rule: ruleOf(name as FieldName, (schema as { format?: string }).format, schema.maxLength),
  }),
)
const KNOWN_NAMES: readonly string[] = FIELDS.map((f) => f.name)
const KNOWN: ReadonlySet<string> = new Set(KNOWN_NAMES)

function checkField(
  field: Field,
  raw: unknown,
  nowMicros: bigint,
  commitMayBeUnknown: boolean,
): Outcome {
  const required = field.required && !(commitMayBeUnknown && field.name === 'commitHash')
  if (raw === undefined || raw === null) return required ? IS_REQUIRED : null
  if (typeof raw !== 'string') return NOT_STRING
  const text = checkText(raw, field.maxLength)
  if (isInvalid(text)) return text
  if (text === '') return required ? NOT_EMPTY : null
  return field.rule === undefined ? text : field.rule(text, nowMicros)
}

function unknownField(key: string): FieldError {
  const suggestion = suggestField(key, KNOWN_NAMES)
  const hint = suggestion === undefined ? '' : `; did you mean "${suggestion}"?`
  return { field: key, message: `is not a known field${hint}` }
}

/**
 * Validates and normalizes a parsed JSON deployment body. Reports every failing field at once,
 * at most one error per field. `now`, the request time, bounds how far in the future `deployedAt`
 * may be, and is its value when omitted, normalised like one sent. `commitMayBeUnknown`: what an
 * integration reports may lack the commit (its sender named none), never what the API receives.
 */
export function validateDeployment(
  body: unknown,
  now: Date,
  { commitMayBeUnknown = false }: { commitMayBeUnknown?: boolean } = {},
): ValidationResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ ...NOT_OBJECT }] }
  }
  const input = body as Record<string, unknown>
  const nowMicros = BigInt(now.getTime()) * 1000n
  const errors: FieldError[] = []
  const value: Record<string, string | null> = {}
  for (const field of FIELDS) {
    const raw = Object.hasOwn(input, field.name) ? input[field.name] : undefined
    const outcome = checkField(field, raw, nowMicros, commitMayBeUnknown)
    if (isInvalid(outcome)) {
      errors.push({ field: field.name, message: outcome.error })
    } else {
      value[field.name] = outcome
    }
  }
  for (const key of Object.keys(input)) {
    if (!KNOWN.has(key)) errors.push(unknownField(key))
  }
  if (errors.length > 0) return { ok: false, errors }
  const deployedAtDefaulted = value.deployedAt === null
  if (deployedAtDefaulted) value.deployedAt = instantFromDate(now).iso
  return { ok: true, value: value as DeploymentFields, deployedAtDefaulted }
}
