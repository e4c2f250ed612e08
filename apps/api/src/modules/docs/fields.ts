import type { Json } from '../../route-table/components.ts'

/** One row of a field table: a property, possibly nested (`data[].id`), and what it holds. */
export interface Field {
  name: string
  type: string
  /** The schema's named type when the field holds one, for a link to it. */
  refersTo?: string
  required: boolean
  description: string
}

const SCHEMA_REF = '#/components/schemas/'

/** The name of a published schema a `$ref` points to. */
export const refName = (schema: Json): string | undefined =>
  typeof schema.$ref === 'string' && schema.$ref.startsWith(SCHEMA_REF)
    ? schema.$ref.slice(SCHEMA_REF.length)
    : undefined

const range = (low: unknown, high: unknown, unit = '') => {
  if (low !== undefined && high !== undefined) return `${low}–${high}${unit}`
  if (high !== undefined) return `at most ${high}${unit}`
  return low !== undefined && low !== 0 ? `at least ${low}${unit}` : undefined
}

// What a schema allows beyond its type, in a few words: lengths, bounds, default.
function limits(schema: Json): string[] {
  const parts = [
    range(schema.minLength, schema.maxLength, ' characters'),
    range(schema.minimum, schema.maximum),
    schema.default === undefined ? undefined : `default ${JSON.stringify(schema.default)}`,
  ]
  return parts.filter((part): part is string => part !== undefined)
}

/** The type of a schema as a reader says it: `string (date-time)`, `array of LatestDeployment`. */
export function typeOf(schema: Json): string {
  const named = refName(schema)
  if (named) return named
  if ('const' in schema) return JSON.stringify(schema.const)
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  // A string of one of several formats: `string (date | date-time)`.
  if (options && schema.type === 'string' && options.every((option) => !option.type)) {
    return `string (${options.map((option) => option.format).join(' | ')})`
  }
  if (options) return options.map(typeOf).join(' | ')
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']
  const rendered = types.map((type) => {
    if (type === 'array') {
      const item = typeOf((schema.items ?? {}) as Json)
      return `array of ${item.includes(' | ') ? `(${item})` : item}`
    }
    if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`
    return String(type)
  })
  return rendered.join(' | ')
}

/** The type with its limits, as shown in a table cell. */
export const typeWithLimits = (schema: Json) => [typeOf(schema), ...limits(schema)].join(', ')

function describe(schema: Json): string {
  const text = typeof schema.description === 'string' ? schema.description : ''
  const examples = Array.isArray(schema.examples) ? schema.examples : []
  if (examples.length === 0) return text
  const listed = examples.map((example) => `\`${String(example)}\``).join(', ')
  return `${text}${text ? '. ' : ''}Example: ${listed}`
}

// The published schema a field holds, directly, as array items or as one of its options.
function namedIn(schema: Json): string | undefined {
  const options = (schema.anyOf ?? schema.oneOf ?? []) as Json[]
  const nested = schema.items ? [schema.items as Json, ...options] : options
  return refName(schema) ?? nested.map(namedIn).find((name) => name !== undefined)
}

/**
 * The objects a field's schema holds, through references, arrays and its options (`| null`, or a
 * value that is an object, or a list of them), each with the suffix its nested fields take (`[]`
 * for each item of an array); none for a scalar.
 */
function inner(
  schema: Json,
  resolve: (name: string) => Json | undefined,
): { object: Json; suffix: string }[] {
  const named = refName(schema)
  if (named) {
    const target = resolve(named)
    return target ? inner(target, resolve) : []
  }
  if (schema.type === 'array' && schema.items) {
    return inner(schema.items as Json, resolve).map((item) => ({
      object: item.object,
      suffix: `[]${item.suffix}`,
    }))
  }
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (options) {
    const objects = options.flatMap((option) => inner(option, resolve))
    return objects.filter(
      (each, index) => objects.findIndex((other) => other.suffix === each.suffix) === index,
    )
  }
  return schema.properties ? [{ object: schema, suffix: '' }] : []
}

/**
 * Every field of an object schema, nested ones under dotted names (`rows[].cells[].version`),
 * references resolved through `resolve` so each table is complete where it stands.
 */
export function fieldsOf(
  schema: Json,
  resolve: (name: string) => Json | undefined,
  prefix = '',
  depth = 0,
): Field[] {
  const object = inner(schema, resolve)[0]?.object
  if (!object?.properties || depth > 4) return []
  const required = new Set((object.required as string[] | undefined) ?? [])
  return Object.entries(object.properties as Record<string, Json>).flatMap(([name, property]) => {
    const path = `${prefix}${name}`
    const nested = inner(property, resolve)
    const field: Field = {
      name: path,
      type: typeWithLimits(property),
      required: required.has(name),
      description: describe(property),
    }
    const target = namedIn(property)
    if (target) field.refersTo = target
    return [
      field,
      ...nested.flatMap((each) =>
        fieldsOf(each.object, resolve, `${path}${each.suffix}.`, depth + 1),
      ),
    ]
  })
}
