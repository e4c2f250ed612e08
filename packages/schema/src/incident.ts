import { type Static, Type } from '@sinclair/typebox'
import { PageOf } from './page.ts'
import { DateTimeParameter, IdParameters, NameParameter, PageParameters } from './parameters.ts'

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description })

const title = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'What went wrong, in a line',
  examples: ['Checkout returns 500s'],
})
const startedAt = Type.String({
  format: 'date-time',
  description:
    "When it started; default: the cause's deployedAt, or the request time when there is no cause",
})
const resolvedAt = Type.String({
  format: 'date-time',
  description: 'When it was resolved; not before startedAt',
})
const causeDeploymentId = Type.String({
  format: 'uuid',
  description: 'The recorded deployment that caused it (in the same environment)',
})

/** `POST /v1/incidents`: an incident in an environment, perhaps of one application. */
export const IncidentInput = Type.Object(
  {
    environment: Type.String({
      minLength: 1,
      maxLength: 255,
      format: 'name',
      description: 'The environment it happened in; one that has deployments',
      examples: ['production'],
    }),
    app: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        format: 'name',
        description:
          'An application of the workspace (one it has recorded a deployment of), in any repository; omit for the whole environment',
      }),
    ),
    title,
    startedAt: Type.Optional(startedAt),
    resolvedAt: Type.Optional(resolvedAt),
    causeDeploymentId: Type.Optional(causeDeploymentId),
  },
  { $id: 'IncidentInput', additionalProperties: false },
)
export type IncidentInput = Static<typeof IncidentInput>

/** `PATCH /v1/incidents/{id}`: the fields to change; `null` clears `resolvedAt` or the cause. */
export const IncidentPatch = Type.Object(
  {
    title: Type.Optional(title),
    startedAt: Type.Optional(startedAt),
    resolvedAt: Type.Optional(
      Type.Union([resolvedAt, Type.Null()], { description: 'When resolved; null reopens it' }),
    ),
    causeDeploymentId: Type.Optional(
      Type.Union([causeDeploymentId, Type.Null()], { description: 'The cause; null clears it' }),
    ),
    fixedByDeploymentId: Type.Optional(
      Type.Union(
        [
          Type.String({
            format: 'uuid',
            description: 'The recorded deployment that fixed it (counted as rework)',
          }),
          Type.Null(),
        ],
        { description: 'The fix; null clears it' },
      ),
    ),
  },
  { $id: 'IncidentPatch', additionalProperties: false },
)
export type IncidentPatch = Static<typeof IncidentPatch>

/** An incident as the API returns it. */
export const Incident = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status: Type.Union([Type.Literal('open'), Type.Literal('resolved')], {
      description: 'resolved once resolvedAt is set',
    }),
    environment: Type.String({ description: 'Display spelling of the environment' }),
    app: Nullable(Type.String(), 'The application named when it was opened, or null'),
    title: Type.String(),
    startedAt: Type.String({ format: 'date-time' }),
    resolvedAt: Nullable(Type.String({ format: 'date-time' }), 'When resolved, or null'),
    causeDeploymentId: Nullable(Type.String({ format: 'uuid' }), 'The cause, or null'),
    fixedByDeploymentId: Nullable(
      Type.String({ format: 'uuid' }),
      'The deployment that fixed it, or null',
    ),
    source: Nullable(
      Type.String(),
      'The integration source that reported it (alertmanager, pagerduty, opsgenie, cdevents), or null when a person opened it',
    ),
    senderUrl: Nullable(
      Type.String(),
      'The sender’s own page of it (PagerDuty’s incident, the alert’s generatorURL), or null',
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Incident' },
)
export type Incident = Static<typeof Incident>

/** One page of incidents, latest `startedAt` first. */
export const IncidentPage = PageOf(Incident, 'IncidentPage')
export type IncidentPage = Static<typeof IncidentPage>

/** Query of `GET /v1/incidents`. */
export const ListIncidentsQuery = Type.Object(
  {
    environment: NameParameter('Only this environment (any case)'),
    app: NameParameter('Only incidents naming this application (any case)'),
    status: Type.Optional(
      Type.Union([Type.Literal('open'), Type.Literal('resolved')], {
        description: 'open (not resolved) or resolved; both when omitted',
      }),
    ),
    since: Type.Optional(
      DateTimeParameter(
        'startedAt at or after: a date (its midnight UTC) or an RFC 3339 date-time',
      ),
    ),
    until: Type.Optional(
      DateTimeParameter('startedAt before: a date (its midnight UTC) or an RFC 3339 date-time'),
    ),
    ...PageParameters,
  },
  { additionalProperties: false },
)
export type ListIncidentsQuery = Static<typeof ListIncidentsQuery>

/** Path of `GET` and `PATCH /v1/incidents/{id}`. */
export const IncidentIdParams = IdParameters('The id in the Location of the 201')
export type IncidentIdParams = Static<typeof IncidentIdParams>
