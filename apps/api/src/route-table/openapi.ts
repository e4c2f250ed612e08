import { NoQuery, Problem, SCOPES } from '@shiplog/schema'
import type { TObject, TSchema } from '@sinclair/typebox'
import { type Answer, HEADERS, type HeaderName } from './answers.ts'
import { ref, SchemaComponents } from './components.ts'
import { type BodyDeclaration, type RouteContract, TAGS } from './route.ts'

// `RateLimit-Limit` is published as `components/headers/RateLimitLimit`.
const componentName = (header: string) => header.replaceAll('-', '')
const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${componentName(name)}` })

const RATE_LIMIT_HEADERS: readonly HeaderName[] = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
]

const UNAUTHORIZED: Answer = {
  description: 'No key, or a malformed, unknown or revoked one',
  headers: ['WWW-Authenticate'],
}

const mebibytes = (bytes: number) => `${bytes / 2 ** 20} MiB`

// What reading a body may answer, whichever route reads it (`lib/json-body.ts`).
const bodyAnswers = (body: BodyDeclaration): Record<number, Answer> => ({
  400: { description: 'The connection closed before the body was complete; send it again' },
  408: {
    description: 'The body did not arrive in time (10 seconds by default); send it in one go',
  },
  413: {
    description: `The body is larger than ${body.maxBytes ? mebibytes(body.maxBytes) : '64 KiB (by default)'}`,
  },
})

/** Every status a route may answer: what its declaration implies, then what it declares. */
function answersOf(route: RouteContract): Record<string, Answer> {
  return {
    401: UNAUTHORIZED,
    403: { description: `The key lacks the \`${route.scope}\` scope` },
    ...(route.body ? bodyAnswers(route.body) : {}),
    ...route.answers,
  }
}

/** The OpenAPI parameters of an object schema: each property, with its example lifted out. */
function parameters(
  schema: TObject,
  where: 'query' | 'path' | 'header',
  schemas: SchemaComponents,
) {
  const required = new Set(schema.required ?? [])
  return Object.entries<TSchema>(schema.properties).map(([name, property]) => {
    const { description, examples, ...rest } = schemas.publish(property)
    const example = Array.isArray(examples) ? { example: examples[0] } : {}
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      description,
      ...example,
      schema: rest,
    }
  })
}

function response(status: number, answer: Answer, schemas: SchemaComponents) {
  const success = status < 400
  const headers = [...(answer.headers ?? []), ...(success ? RATE_LIMIT_HEADERS : [])]
  const example = answer.example === undefined ? {} : { example: answer.example }
  // Problem is published after the routes' own schemas (`openApiDocument`), so it is listed last.
  const alternatives = Object.entries(answer.alternatives ?? {}).map(([type, form]) => [
    type,
    {
      schema: { type: 'string' },
      ...(form.example === undefined ? {} : { example: form.example }),
    },
  ])
  const content = success
    ? answer.body && {
        'application/json': { schema: schemas.publish(answer.body), ...example },
        ...Object.fromEntries(alternatives),
      }
    : { 'application/problem+json': { schema: ref(Problem.$id as string), ...example } }
  return {
    description: answer.description,
    ...(headers.length > 0
      ? { headers: Object.fromEntries(headers.map((name) => [name, headerRef(name)])) }
      : {}),
    ...(content ? { content } : {}),
  }
}

function operation(route: RouteContract, schemas: SchemaComponents) {
  const query = route.query === 'ignored' ? undefined : (route.query ?? NoQuery)
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: route.description,
    parameters: [
      ...(route.params ? parameters(route.params, 'path', schemas) : []),
      ...(query ? parameters(query, 'query', schemas) : []),
      ...(route.headers ? parameters(route.headers.schema, 'header', schemas) : []),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: !route.body.optional,
            content: { 'application/json': { schema: schemas.publish(route.body.schema) } },
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(answersOf(route)).map(([status, answer]) => [
        status,
        response(Number(status), answer, schemas),
      ]),
    ),
  }
}

/**
 * The OpenAPI 3.1 description of the API, built from the route table: the same declarations the
 * registrar checks requests by, so the document cannot drift from the behaviour. It describes
 * what clients call (`/v1`); the probes and `/metrics` are for the cluster.
 */
export function openApiDocument(routes: readonly RouteContract[], description: string) {
  const schemas = new SchemaComponents()
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {}
  for (const route of routes) {
    paths[route.path] = {
      ...paths[route.path],
      [route.method.toLowerCase()]: operation(route, schemas),
    }
  }
  schemas.publish(Problem)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Shiplog',
      version: '1.0.0',
      description,
      contact: { name: 'The team that runs this Shiplog' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This Shiplog' }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, about]) => ({ name, description: about })),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key: \`shiplog_\` and 43 characters, with scopes (${SCOPES.map((scope) => `\`${scope}\``).join(', ')})`,
        },
      },
      schemas: schemas.schemas,
      headers: Object.fromEntries(
        Object.entries(HEADERS).map(([name, header]) => [componentName(name), header]),
      ),
    },
    paths,
  }
}

/** The OpenAPI document's type, for the page that renders it. */
export type OpenApiDocument = ReturnType<typeof openApiDocument>
