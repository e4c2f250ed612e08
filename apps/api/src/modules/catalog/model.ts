import { Type } from '@sinclair/typebox'

/** Query of `GET /v1/applications` and `GET /v1/state`. */
export const ByRepositoryQuery = Type.Object(
  {
    repository: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Only this repository, owner/name (any case)',
      }),
    ),
  },
  { additionalProperties: false },
)
