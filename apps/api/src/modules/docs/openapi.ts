import {
  ApplicationSummary,
  DeploymentFrequency,
  DeploymentInput,
  DeploymentMatrix,
  DeploymentPage,
  DeploymentStatus,
  EnvironmentSummary,
  Problem,
} from '@shiplog/schema'
import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { ByRepositoryQuery } from '../catalog/model.ts'
import { DeploymentIdParams, ListDeploymentsQuery } from '../deployments/model.ts'
import { FrequencyQuery } from '../frequency/model.ts'

// TypeBox schemas are JSON Schema, which OpenAPI 3.1 takes as is; only their `$id`s go, since
// named schemas are referenced through components instead.
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (key, value) => (key === '$id' ? undefined : value))
}

const COMPONENTS = {
  DeploymentInput,
  DeploymentStatus,
  DeploymentPage,
  ApplicationSummary,
  EnvironmentSummary,
  DeploymentMatrix,
  DeploymentFrequency,
  Problem,
} as const

const ref = (name: keyof typeof COMPONENTS) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: object) => ({ 'application/json': { schema } })

function parameters(schema: TObject, where: 'query' | 'path') {
  const required = new Set(schema.required ?? [])
  return Object.entries<TSchema>(schema.properties).map(([name, property]) => {
    const { description, ...rest } = plain(property)
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      description,
      schema: rest,
    }
  })
}

const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'Bucket capacity of the key', schema: { type: 'integer' } },
  'RateLimit-Remaining': {
    description: 'Tokens left (this replica’s estimate)',
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the bucket is full again',
    schema: { type: 'integer' },
  },
}

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
})

const readErrors = {
  '401': problem('Missing, malformed, unknown or revoked API key'),
  '422': problem('Invalid query: every bad parameter is listed in `errors`'),
  '429': problem('Rate limit exceeded; see `Retry-After`'),
  '503': problem('The database is unavailable; retry after `Retry-After`'),
}

const read = (summary: string, query: TObject, schema: object, description?: string) => ({
  summary,
  description,
  parameters: parameters(query, 'query'),
  responses: {
    '200': { description: 'OK', headers: rateLimitHeaders, content: json(schema) },
    ...readErrors,
  },
})

const probe = (summary: string) => ({
  summary,
  security: [],
  responses: {
    '200': {
      description: 'OK',
      content: json({ type: 'object', properties: { status: { type: 'string' } } }),
    },
    '503': problem('Not ready (only /readyz)'),
  },
})

/**
 * The OpenAPI 3.1 description of the API, built from the same TypeBox schemas the handlers use
 * to validate, so the document cannot drift from the behaviour.
 */
export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Shiplog',
      version: '1.0.0',
      description:
        'Records deployments: a pipeline reports that a version (and commit) of an application was deployed to an environment of a repository. Errors are RFC 9457 problem details.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `shiplog_` and 43 characters',
        },
      },
      schemas: Object.fromEntries(
        Object.entries(COMPONENTS).map(([name, schema]) => [name, plain(schema)]),
      ),
    },
    paths: {
      '/v1/deployments': {
        post: {
          summary: 'Record a deployment',
          description:
            'Accepted asynchronously: `202` means durably queued, with `Location` naming the receipt. Checks run in this order: authentication, rate limit, body, enqueue.',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'Makes retries safe for 24 hours: the same key and body return the original answer; a different body is 422.',
              schema: { type: 'string', minLength: 1, maxLength: 255 },
            },
          ],
          requestBody: { required: true, content: json(ref('DeploymentInput')) },
          responses: {
            '202': {
              description: 'Accepted and durably queued',
              headers: {
                ...rateLimitHeaders,
                Location: {
                  description: 'The receipt: `/v1/deployments/{id}`',
                  schema: { type: 'string' },
                },
              },
              content: json({
                type: 'object',
                properties: { status: { const: 202 } },
                required: ['status'],
              }),
            },
            '401': problem('Missing, malformed, unknown or revoked API key'),
            '408': problem('The body did not arrive in time'),
            '413': problem('The body is larger than 64 KiB'),
            '422': problem(
              'Invalid body (every failing field listed in `errors`) or reused Idempotency-Key',
            ),
            '429': problem('Rate limit exceeded; see `Retry-After`'),
            '503': problem(
              'Not accepted (retry after `Retry-After`); type `/problems/outcome-unknown`: retry with the same Idempotency-Key',
            ),
          },
        },
        get: read(
          'List deployments, newest deployedAt first',
          ListDeploymentsQuery,
          ref('DeploymentPage'),
        ),
      },
      '/v1/deployments/{id}': {
        get: {
          summary: 'What became of an accepted deployment: queued, recorded or failed',
          parameters: parameters(DeploymentIdParams, 'path'),
          responses: {
            '200': {
              description: 'OK',
              headers: rateLimitHeaders,
              content: json(ref('DeploymentStatus')),
            },
            '404': problem('No deployment with this id in your workspace'),
            ...readErrors,
          },
        },
      },
      '/v1/applications': {
        get: read(
          'Applications, with deployment counts and the latest deployment',
          ByRepositoryQuery,
          {
            type: 'object',
            properties: { data: { type: 'array', items: ref('ApplicationSummary') } },
          },
        ),
      },
      '/v1/environments': {
        get: read(
          'Environments, with deployment counts and the latest deployment',
          Type.Object({}),
          {
            type: 'object',
            properties: { data: { type: 'array', items: ref('EnvironmentSummary') } },
          },
        ),
      },
      '/v1/state': {
        get: read(
          'What is deployed where: applications × environments',
          ByRepositoryQuery,
          ref('DeploymentMatrix'),
        ),
      },
      '/v1/metrics/deployment-frequency': {
        get: read(
          'DORA deployment frequency per application',
          FrequencyQuery,
          ref('DeploymentFrequency'),
          'Recorded deployments into one environment per UTC day or ISO week, zero-filled.',
        ),
      },
      '/healthz': { get: probe('The process is alive') },
      '/readyz': { get: probe('Postgres is reachable and migrated; not shutting down') },
    },
  }
}
