import type { TObject, TSchema } from '@sinclair/typebox'
import { acceptedValues } from './accepted-values.ts'

/** One variable of an app's env schema, as docs/configuration.md lists it. */
export interface EnvVariable {
  name: string
  /** What an unset or empty variable stands for; none when it has no default. */
  default: string | undefined
  /** Whether the process refuses to start without it (no default, not optional). */
  required: boolean
  accepted: string
  description: string | undefined
}

/** An app's env schema: a TypeBox object of one property per variable. */
export type EnvSchema = TObject

/** The variables an env schema reads, in its order, as `parseEnv` treats them. */
export function envVariables(schema: EnvSchema): EnvVariable[] {
  const required = new Set(schema.required ?? [])
  return Object.entries<TSchema>(schema.properties).map(([name, property]) => ({
    name,
    default: property.default === undefined ? undefined : String(property.default),
    required: property.default === undefined && required.has(name),
    accepted: acceptedValues(property),
    description: property.description,
  }))
}
