import {
  ApplicationSummary,
  ChangeFailure,
  ChangeFailureSignal,
  ChangeType,
  DeploymentCommit,
  DeploymentCommits,
  DeploymentCommitsInput,
  DeploymentFailure,
  DeploymentFrequency,
  DeploymentInput,
  DeploymentMatrix,
  DeploymentPage,
  DeploymentStatus,
  DeploymentVoided,
  DeploymentVoidInput,
  DoraMetrics,
  EnvironmentSummary,
  FieldError,
  Incident,
  IncidentInput,
  IncidentPage,
  IncidentPatch,
  LatestDeployment,
  Problem,
} from '@shiplog/schema'
import type { TObject, TSchema } from '@sinclair/typebox'

/** A JSON Schema (or any part of the OpenAPI document) as plain data. */
export type Json = Record<string, unknown>

/** The schemas published under `components/schemas`, each under the name of its `$id`. */
const SCHEMAS = {
  DeploymentInput,
  DeploymentStatus,
  DeploymentFailure,
  DeploymentVoided,
  DeploymentVoidInput,
  ChangeType,
  ChangeFailure,
  ChangeFailureSignal,
  DeploymentCommit,
  DeploymentCommitsInput,
  DeploymentCommits,
  DeploymentPage,
  ApplicationSummary,
  EnvironmentSummary,
  LatestDeployment,
  DeploymentMatrix,
  DeploymentFrequency,
  DoraMetrics,
  IncidentInput,
  IncidentPatch,
  Incident,
  IncidentPage,
  Problem,
  FieldError,
} as const

type SchemaName = keyof typeof SCHEMAS

const isSchemaName = (name: unknown): name is SchemaName =>
  typeof name === 'string' && Object.hasOwn(SCHEMAS, name)

/** A reference to a published schema. */
export const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` })

// Keywords of our own that JSON Schema does not define: `parseParameters` reads `errorMessage`,
// clients have no use for it and OpenAPI linters reject it.
const PRIVATE_KEYWORDS = new Set(['errorMessage'])

/**
 * A TypeBox schema as OpenAPI 3.1 takes it (plain JSON Schema): private keywords go, and a
 * schema nested inside another that is published on its own becomes a `$ref` to it.
 */
export function published(schema: TSchema, self?: string): Json {
  const walk = (value: unknown, isPropertyMap: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, false))
    if (typeof value !== 'object' || value === null) return value
    const { $id, ...rest } = value as Json
    if (!isPropertyMap && $id !== self && isSchemaName($id)) return ref($id)
    return Object.fromEntries(
      Object.entries(rest)
        .filter(([key]) => isPropertyMap || !PRIVATE_KEYWORDS.has(key))
        .map(([key, child]) => [key, walk(child, !isPropertyMap && key === 'properties')]),
    )
  }
  return walk(schema, false) as Json
}

// The validator reads `null` (like a blank string) in an optional field as "omitted", so the
// published input says so; TypeBox's static type stays `string` for code that builds a body.
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

/** Every published schema, as it appears under `components/schemas`. */
export function componentSchemas(): Record<SchemaName, Json> {
  const schemas = Object.fromEntries(
    Object.entries(SCHEMAS).map(([name, schema]) => [name, published(schema, name)]),
  ) as Record<SchemaName, Json>
  schemas.DeploymentInput = acceptingNull(schemas.DeploymentInput)
  return schemas
}

/** `application/json` content of `schema`. */
export const json = (schema: object, example?: unknown) => ({
  'application/json': example === undefined ? { schema } : { schema, example },
})

/** The response headers the API sends, under `components/headers`. */
export const HEADERS = {
  RateLimitLimit: {
    description: 'Capacity of the key’s token bucket: requests it may send in a burst',
    schema: { type: 'integer', minimum: 1 },
  },
  RateLimitRemaining: {
    description: 'Requests the key may still send now (this replica’s estimate)',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitReset: {
    description: 'Seconds until the bucket is full again',
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'Seconds to wait before sending the request again',
    schema: { type: 'integer', minimum: 0 },
  },
  WwwAuthenticate: {
    description: 'Always `Bearer realm="shiplog"`: send the key as a bearer token',
    schema: { type: 'string' },
  },
  Location: {
    description: 'The deployment’s receipt, `/v1/deployments/{id}`: poll it to see it recorded',
    schema: { type: 'string', format: 'uri-reference' },
  },
} as const

const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` })

/** The headers on every answer to a request with a valid key. */
export const rateLimitHeaders = {
  'RateLimit-Limit': header('RateLimitLimit'),
  'RateLimit-Remaining': header('RateLimitRemaining'),
  'RateLimit-Reset': header('RateLimitReset'),
}

const problemContent = (example?: Json) => ({
  'application/problem+json': example
    ? { schema: ref('Problem'), example }
    : { schema: ref('Problem') },
})

/** A problem-details response. */
export function problem(description: string, example?: Json) {
  return { description, content: problemContent(example) }
}

/** `401`: no usable key. */
export const unauthorized = {
  description: 'No key, or a malformed, unknown or revoked one',
  headers: { 'WWW-Authenticate': header('WwwAuthenticate') },
  content: problemContent(),
}

/** `429`: wait `Retry-After` seconds. */
export function rateLimited(description: string) {
  return {
    description,
    headers: { 'Retry-After': header('RetryAfter') },
    content: problemContent(),
  }
}

/** `503`: nothing changed; retry after `Retry-After` seconds. */
export function unavailable(description: string) {
  return {
    description,
    headers: { 'Retry-After': header('RetryAfter') },
    content: problemContent(),
  }
}

/** Query or path parameters described by a TypeBox object schema. */
export function parameters(schema: TObject, where: 'query' | 'path') {
  const required = new Set(schema.required ?? [])
  return Object.entries<TSchema>(schema.properties).map(([name, property]) => {
    const { description, ...rest } = published(property)
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      description,
      schema: rest,
    }
  })
}
