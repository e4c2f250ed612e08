import type { TSchema } from '@sinclair/typebox'

/**
 * What a variable accepts, in words: its schema's `errorMessage` if it has one, else its type and
 * bounds. The error that refuses a value says this, and so does docs/configuration.md.
 */
export function acceptedValues(schema: TSchema): string {
  if (schema.errorMessage) return schema.errorMessage
  if (schema.type === 'boolean') return 'true or false'
  const parts: string[] = []
  if (schema.type === 'integer') parts.push('a whole number')
  if (schema.minimum !== undefined) parts.push(`at least ${schema.minimum}`)
  if (schema.maximum !== undefined) parts.push(`at most ${schema.maximum}`)
  // An empty variable counts as unset, so a string always has at least one character.
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`)
  if (schema.anyOf) parts.push(`one of ${schema.anyOf.map((s: TSchema) => s.const).join(', ')}`)
  if (schema.pattern) parts.push(`matching ${schema.pattern}`)
  if (parts.length > 0) return parts.join(', ')
  return schema.type === 'string' ? 'any text' : 'valid'
}
