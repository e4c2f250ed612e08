import { CursorParameter, DateTimeParameter } from '@shiplog/schema'
import { Type } from '@sinclair/typebox'

const Name = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 255, description }))

/** Query of `GET /v1/incidents`. */
export const ListIncidentsQuery = Type.Object(
  {
    environment: Name('Only this environment (any case)'),
    app: Name('Only incidents naming this application (any case)'),
    status: Type.Optional(
      Type.Union([Type.Literal('open'), Type.Literal('resolved')], {
        description: 'open (not resolved) or resolved; both when omitted',
      }),
    ),
    since: Type.Optional(DateTimeParameter('startedAt at or after (RFC 3339)')),
    until: Type.Optional(DateTimeParameter('startedAt before (RFC 3339)')),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 50,
        description: 'Page size, at most 100',
      }),
    ),
    cursor: Type.Optional(CursorParameter('`nextCursor` of the previous page')),
  },
  { additionalProperties: false },
)

/** Path of `GET` and `PATCH /v1/incidents/{id}`. */
export const IncidentIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The id in the Location of the 201' }),
})
