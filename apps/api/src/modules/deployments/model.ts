import { Type } from '@sinclair/typebox'

/** Query of `GET /v1/deployments`. */
export const ListDeploymentsQuery = Type.Object(
  {
    app: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Only this application (any case)',
      }),
    ),
    environment: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Only this environment (any case)',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 50,
        description: 'Page size, at most 100',
      }),
    ),
    cursor: Type.Optional(
      Type.String({ maxLength: 200, description: '`nextCursor` of the previous page' }),
    ),
  },
  { additionalProperties: false },
)
