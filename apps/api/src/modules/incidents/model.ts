import { DateTimeParameter } from '@shiplog/schema'
import { Type } from '@sinclair/typebox'
import { NameParameter, PageParameters } from '../../lib/parameters.ts'

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
    since: Type.Optional(DateTimeParameter('startedAt at or after (RFC 3339)')),
    until: Type.Optional(DateTimeParameter('startedAt before (RFC 3339)')),
    ...PageParameters,
  },
  { additionalProperties: false },
)

/** Path of `GET` and `PATCH /v1/incidents/{id}`. */
export const IncidentIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The id in the Location of the 201' }),
})
