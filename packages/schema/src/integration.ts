// Integrations: a sender outside Shiplog (a GitHub or GitLab webhook) reporting deployments and
// pushes into one workspace. `@shiplog/schema/integration` rather than the index: the GitHub
// Action bundles the index, and has no use for these.

import { type Static, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Checked } from './checked.ts'
import type { FieldError } from './problem.ts'
import { checkText, isInvalid } from './text.ts'

export const INTEGRATION_SOURCES = [
  'github',
  'gitlab',
  'cdevents',
  'argocd',
  'flux',
  'alertmanager',
  'pagerduty',
  'opsgenie',
] as const
export type IntegrationSource = (typeof INTEGRATION_SOURCES)[number]

const FixedValue = Type.String({ minLength: 1, maxLength: 255, description: 'This value itself' })
const PathValue = Type.Object(
  {
    from: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[^.\\s]+(\\.[^.\\s]+)*$',
      description:
        'A dot path into the delivery’s JSON body (`deployment.payload.service`), or `headers.<name>` for a request header',
    }),
  },
  { additionalProperties: false },
)
const SingleValue = Type.Union([FixedValue, PathValue])

/** What one Shiplog field is taken from: a value, a path, or a list of these tried in order. */
export const MappingValue = Type.Union([
  SingleValue,
  Type.Array(SingleValue, { minItems: 1, maxItems: 10 }),
])
export type MappingValue = Static<typeof MappingValue>

/** The fields an integration may map: those a source's deliveries may lack. */
export const IntegrationMapping = Type.Object(
  {
    app: Type.Optional(MappingValue),
    environment: Type.Optional(MappingValue),
    repository: Type.Optional(MappingValue),
    version: Type.Optional(MappingValue),
    commit: Type.Optional(MappingValue),
  },
  {
    additionalProperties: false,
    $id: 'IntegrationMapping',
    description:
      'Where the Shiplog fields a source may lack come from; a field left out follows the source’s default',
  },
)
export type IntegrationMapping = Static<typeof IntegrationMapping>

const name = Type.String({ minLength: 1, maxLength: 100, description: 'Unique in the workspace' })
const source = Type.Union(
  INTEGRATION_SOURCES.map((each) => Type.Literal(each)),
  { description: 'Who sends the deliveries' },
)

/** The sources whose senders make the secret themselves: the integration is given theirs. */
export const SENDER_MADE_SECRETS: readonly IntegrationSource[] = ['pagerduty']

/** `POST /v1/integrations`. */
export const IntegrationInput = Type.Object(
  {
    source,
    name,
    mapping: Type.Optional(IntegrationMapping),
    secret: Type.Optional(
      Type.String({
        minLength: 16,
        maxLength: 200,
        description:
          'pagerduty only, and required there: the signing secret PagerDuty showed for the webhook subscription. Every other source gets a secret Shiplog makes',
      }),
    ),
  },
  { additionalProperties: false },
)
export type IntegrationInput = Static<typeof IntegrationInput>

/** `PATCH /v1/integrations/{id}`: what to change. */
export const IntegrationPatch = Type.Object(
  { name: Type.Optional(name), mapping: Type.Optional(IntegrationMapping) },
  { additionalProperties: false },
)
export type IntegrationPatch = Static<typeof IntegrationPatch>

export const Integration = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    source,
    name,
    url: Type.String({ format: 'uri', description: 'Where the sender posts its deliveries' }),
    events: Type.Array(Type.String(), { description: 'The events to send; others are ignored' }),
    mapping: IntegrationMapping,
    mappingInEffect: Type.Record(Type.String(), Type.Array(Type.String()), {
      description:
        'Each field’s sources in the order they are tried, the source’s defaults included: a quoted value is fixed, anything else is a path',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    previousSecretValidUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'After a rotation, until when the previous secret is still accepted',
    }),
  },
  { $id: 'Integration' },
)
export type Integration = Static<typeof Integration>

/** An integration as created or rotated: with its secret, shown in this answer only. */
export const IntegrationWithSecret = Type.Composite(
  [
    Integration,
    Type.Object({
      secret: Type.String({ description: 'Shown once: paste it into the sender’s hook now' }),
    }),
  ],
  { $id: 'IntegrationWithSecret' },
)
export type IntegrationWithSecret = Static<typeof IntegrationWithSecret>

export const IntegrationList = Type.Object(
  { data: Type.Array(Integration) },
  { $id: 'IntegrationList' },
)
export type IntegrationList = Static<typeof IntegrationList>

export const DELIVERY_OUTCOMES = ['waiting', 'recorded', 'duplicate', 'ignored', 'refused'] as const

export const IntegrationDelivery = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    receivedAt: Type.String({ format: 'date-time' }),
    event: Type.String({ description: 'The sender’s event name' }),
    senderDeliveryId: Type.Union([Type.String(), Type.Null()], {
      description: 'The sender’s own id of the delivery (X-GitHub-Delivery, Idempotency-Key)',
    }),
    outcome: Type.Union(
      DELIVERY_OUTCOMES.map((each) => Type.Literal(each)),
      {
        description:
          'waiting: stored, not handled yet; recorded: it produced a deployment, commits or a failure; duplicate: the sender sent it before; ignored and refused: `reason` says why (a recorded one says it too when it was recorded with its commit unknown)',
      },
    ),
    reason: Type.Union([Type.String(), Type.Null()]),
    duplicateOf: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    deployment: Type.Union([
      Type.String({ description: 'Its receipt: /v1/deployments/{id}' }),
      Type.Null(),
    ]),
    commits: Type.Union([
      Type.Integer({ description: 'How many commits a push listed' }),
      Type.Null(),
    ]),
    handledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'IntegrationDelivery' },
)
export type IntegrationDelivery = Static<typeof IntegrationDelivery>

export const IntegrationDeliveries = Type.Object(
  {
    data: Type.Array(IntegrationDelivery),
    nextCursor: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'Pass as `cursor` for older deliveries; null on the last page',
    }),
  },
  { $id: 'IntegrationDeliveries' },
)

/** Query of `GET /v1/integrations/{id}/deliveries`. */
export const ListDeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 100,
        description: 'Page size, at most 100',
      }),
    ),
    cursor: Type.Optional(
      Type.String({ format: 'uuid', description: '`nextCursor` of the previous page' }),
    ),
  },
  { additionalProperties: false },
)
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>
export type IntegrationDeliveries = Static<typeof IntegrationDeliveries>

function mappingErrors(mapping: unknown): FieldError[] {
  if (Value.Check(IntegrationMapping, mapping)) return []
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) {
    return [{ field: 'mapping', message: 'must be an object whose keys are Shiplog fields' }]
  }
  const errors: FieldError[] = []
  for (const [key, value] of Object.entries(mapping)) {
    const field = `mapping.${key}`
    if (!['app', 'environment', 'repository', 'version'].includes(key)) {
      errors.push({
        field,
        message: 'is not a field a mapping gives: app, environment, repository or version',
      })
    } else if (!Value.Check(MappingValue, value)) {
      errors.push({
        field,
        message:
          'must be a string, {"from": "<dot path>"}, or a list of 1 to 10 of these (each at most 255 characters)',
      })
    }
  }
  return errors
}

function nameErrors(value: unknown): FieldError[] {
  if (typeof value !== 'string') return [{ field: 'name', message: 'must be a string' }]
  const checked = checkText(value, 100)
  if (isInvalid(checked)) return [{ field: 'name', message: checked.error }]
  if (checked === '') return [{ field: 'name', message: 'must not be empty' }]
  return []
}

function unknownFields(input: Record<string, unknown>, known: string[]): FieldError[] {
  return Object.keys(input)
    .filter((key) => !known.includes(key))
    .map((field) => ({ field, message: 'is not a known field' }))
}

const asObject = (body: unknown) =>
  typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined

/** Checks a `POST /v1/integrations` body: every failing field at once. */
export function validateIntegrationInput(body: unknown): Checked<IntegrationInput> {
  const input = asObject(body)
  if (!input) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] }
  const errors = unknownFields(input, ['source', 'name', 'mapping', 'secret'])
  if (!INTEGRATION_SOURCES.includes(input.source as IntegrationSource)) {
    errors.push({ field: 'source', message: `must be one of ${INTEGRATION_SOURCES.join(', ')}` })
  }
  errors.push(...secretErrors(input.source, input.secret))
  errors.push(
    ...(input.name === undefined
      ? [{ field: 'name', message: 'is required' }]
      : nameErrors(input.name)),
  )
  if (input.mapping !== undefined) errors.push(...mappingErrors(input.mapping))
  if (errors.length > 0) return { ok: false, errors }
  return {
    ok: true,
    value: {
      source: input.source as IntegrationSource,
      name: (input.name as string).trim(),
      mapping: (input.mapping as IntegrationMapping | undefined) ?? {},
      ...(typeof input.secret === 'string' && { secret: input.secret }),
    },
  }
}

function secretErrors(source: unknown, secret: unknown): FieldError[] {
  const senderMade = SENDER_MADE_SECRETS.includes(source as IntegrationSource)
  if (secret === undefined) {
    return senderMade
      ? [
          {
            field: 'secret',
            message: `is required for ${String(source)}: give the signing secret it showed for the webhook`,
          },
        ]
      : []
  }
  if (!senderMade) {
    return [
      {
        field: 'secret',
        message:
          'is made by Shiplog for this source: leave it out (only a pagerduty integration takes one)',
      },
    ]
  }
  if (
    typeof secret !== 'string' ||
    secret.length < 16 ||
    secret.length > 200 ||
    /\s/.test(secret)
  ) {
    return [{ field: 'secret', message: 'must be 16 to 200 characters without spaces' }]
  }
  return []
}

/** Checks a `PATCH /v1/integrations/{id}` body. */
export function validateIntegrationPatch(body: unknown): Checked<IntegrationPatch> {
  const input = asObject(body)
  if (!input) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] }
  const errors = unknownFields(input, ['name', 'mapping'])
  if (input.name !== undefined) errors.push(...nameErrors(input.name))
  if (input.mapping !== undefined) errors.push(...mappingErrors(input.mapping))
  if (input.name === undefined && input.mapping === undefined && errors.length === 0) {
    errors.push({ field: 'body', message: 'names nothing to change: send name, mapping or both' })
  }
  if (errors.length > 0) return { ok: false, errors }
  return {
    ok: true,
    value: {
      ...(input.name === undefined ? {} : { name: (input.name as string).trim() }),
      ...(input.mapping === undefined ? {} : { mapping: input.mapping as IntegrationMapping }),
    },
  }
}
