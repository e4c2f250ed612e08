import type { Static, TObject, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { acceptedValues } from './accepted-values.ts'

function convert(name: string, schema: TSchema, raw: string): unknown {
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const value = Number(raw)
      if (raw.trim() === '' || !Number.isFinite(value))
        throw new Error(`${name} must be a number (got "${raw}")`)
      return value
    }
    case 'boolean':
      if (/^(true|1|yes)$/i.test(raw)) return true
      if (/^(false|0|no)$/i.test(raw)) return false
      throw new Error(`${name} must be ${acceptedValues(schema)} (got "${raw}")`)
    default:
      return raw
  }
}

/**
 * Reads configuration from environment variables against a TypeBox object schema, filling
 * defaults and failing with one message that names every bad variable and what it should be.
 */
export function parseEnv<T extends TObject>(
  schema: T,
  source: Record<string, string | undefined>,
): Static<T> {
  const problems: string[] = []
  const values: Record<string, unknown> = {}
  const required = new Set(schema.required ?? [])
  for (const [name, property] of Object.entries<TSchema>(schema.properties)) {
    const raw = source[name]
    if (raw === undefined || raw === '') {
      if (property.default !== undefined) values[name] = property.default
      else if (required.has(name))
        problems.push(`${name} is required: ${property.description ?? ''}`.trim())
      continue
    }
    try {
      const value = convert(name, property, raw)
      if (!Value.Check(property, value)) {
        problems.push(`${name} must be ${acceptedValues(property)} (got "${raw}")`)
      } else {
        values[name] = value
      }
    } catch (error) {
      problems.push((error as Error).message)
    }
  }
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`)
  }
  return values as Static<T>
}

/**
 * A process's configuration, read once at start: `load(process.env)`, or, when that throws, its
 * message on stderr and exit code 2 before anything has started.
 */
export function loadEnvOrExit<T>(load: (source: Record<string, string | undefined>) => T): T {
  try {
    return load(process.env)
  } catch (error) {
    console.error((error as Error).message)
    process.exit(2)
  }
}
