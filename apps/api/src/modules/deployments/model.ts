import { CursorParameter, DateTimeParameter } from '@shiplog/schema'
import { Type } from '@sinclair/typebox'

const Name = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 255, description }))

/** Query of `GET /v1/deployments`. */
export const ListDeploymentsQuery = Type.Object(
  {
    app: Name('Only this application (any case)'),
    environment: Name('Only this environment (any case)'),
    repository: Name('Only this repository, owner/name (any case)'),
    version: Type.Optional(
      Type.String({ minLength: 1, maxLength: 70, description: 'Only this exact version' }),
    ),
    commitHash: Type.Optional(
      Type.String({
        pattern: '^[0-9a-fA-F]{4,70}$',
        errorMessage: 'must be 4 to 70 hexadecimal digits: the start of a commit SHA',
        description: 'Only commits starting with these hexadecimal digits (at least 4)',
      }),
    ),
    since: Type.Optional(DateTimeParameter('deployedAt at or after (RFC 3339)')),
    until: Type.Optional(DateTimeParameter('deployedAt before (RFC 3339)')),
    status: Type.Optional(
      Type.Union([Type.Literal('recorded'), Type.Literal('queued'), Type.Literal('failed')], {
        default: 'recorded',
        description:
          'recorded (default), queued (accepted, not yet recorded) or failed (dead-lettered)',
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
    cursor: Type.Optional(CursorParameter('`nextCursor` of the previous page')),
  },
  { additionalProperties: false },
)

/** Path of `GET /v1/deployments/{id}`. */
export const DeploymentIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The id in the Location of the 202' }),
})
