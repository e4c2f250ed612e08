import type { TSchema } from '@sinclair/typebox'

/** A JSON Schema (or any part of the OpenAPI document) as plain data. */
export type Json = Record<string, unknown>

/** A reference to a schema published under `components/schemas`. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

// Keywords of our own that JSON Schema does not define: `parseParameters` reads `errorMessage`
// and `parameterFormat`; clients have no use for them and OpenAPI linters reject them.
const PRIVATE_KEYWORDS = new Set(['errorMessage', 'parameterFormat'])

// The deployment validator reads `null` (like a blank string) in an optional field as "omitted",
// so its published input says so; TypeBox's static type stays `string` for code that builds one.
const NULL_AS_OMITTED = new Set(['DeploymentInput'])

function acceptingNull(schema: Json): Json {
  const required = new Set(schema.required as string[])
  const properties = Object.entries(schema.properties as Record<string, Json>).map(
    ([name, property]) => [
      name,
      required.has(name) ? property : { ...property, type: [property.type, 'null'] },
    ],
  )
  return { ...schema, properties: Object.fromEntries(properties) }
}

/**
 * Turns TypeBox schemas into the plain JSON Schema OpenAPI 3.1 takes: private keywords go, and
 * every schema with an `$id` (`DeploymentStatus`) is published once under `components/schemas`,
 * each place that holds it getting a `$ref`. So the components are exactly what the routes use.
 */
export class SchemaComponents {
  /** Every schema published so far, by name, in the order the routes first used them. */
  readonly schemas: Record<string, Json> = {}

  /** `schema` as it appears in the document: a `$ref` if it is published by name. */
  publish(schema: TSchema): Json {
    return this.walk(schema, false, undefined) as Json
  }

  private named(name: string, schema: Json): Json {
    if (!Object.hasOwn(this.schemas, name)) {
      // Claimed before the walk, so a schema that holds itself stops there.
      this.schemas[name] = {}
      const published = this.walk(schema, false, name) as Json
      this.schemas[name] = NULL_AS_OMITTED.has(name) ? acceptingNull(published) : published
    }
    return ref(name)
  }

  private walk(value: unknown, isPropertyMap: boolean, self: string | undefined): unknown {
    if (Array.isArray(value)) return value.map((item) => this.walk(item, false, self))
    if (typeof value !== 'object' || value === null) return value
    const { $id, ...rest } = value as Json
    if (!isPropertyMap && typeof $id === 'string' && $id !== self) {
      return this.named($id, value as Json)
    }
    return Object.fromEntries(
      Object.entries(rest)
        .filter(([key]) => isPropertyMap || !PRIVATE_KEYWORDS.has(key))
        .map(([key, child]) => [
          key,
          this.walk(child, !isPropertyMap && key === 'properties', undefined),
        ]),
    )
  }
}
