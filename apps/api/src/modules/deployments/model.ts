import { DateTimeParameter } from '@shiplog/schema'
import { Type } from '@sinclair/typebox'
import { NameParameter, PageParameters } from '../../lib/parameters.ts'

/** Query of `GET /v1/deployments`. */
export const ListDeploymentsQuery = Type.Object(
  {
    app: NameParameter('Only this application (any case)'),
    environment: NameParameter('Only this environment (any case)'),
    repository: NameParameter('Only this repository, owner/name (any case)'),
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
    ...PageParameters,
  },
  { additionalProperties: false },
)

/** Path of `GET /v1/deployments/{id}`. */
export const DeploymentIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The id in the Location of the 202' }),
})
