import { type Static, Type } from '@sinclair/typebox'
import { ChangeType } from './change-type.ts'
import { DeployedCommit } from './deployment.ts'
import { DeploymentSource, DeploymentStatus } from './deployment-status.ts'
import { PageOf } from './page.ts'
import { DateTimeParameter, IdParameters, NameParameter, PageParameters } from './parameters.ts'

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()])

/** A recorded deployment as the read API returns it. */
export const DeploymentRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Assigned when the deployment was accepted' }),
    repositoryFullName: Type.String(),
    environment: Type.String({ description: 'Display spelling: the first one seen' }),
    app: Type.String({ description: 'Display spelling: the first one seen' }),
    version: Type.String(),
    commitHash: DeployedCommit,
    description: Nullable(Type.String()),
    author: Nullable(Type.String()),
    deployedAt: Type.String({ format: 'date-time' }),
    monorepoPath: Nullable(Type.String()),
    receivedAt: Type.String({ format: 'date-time', description: 'When the API accepted it' }),
    source: DeploymentSource,
    recordedAt: Type.String({ format: 'date-time', description: 'When the worker stored it' }),
    changeType: ChangeType,
  },
  { $id: 'DeploymentRecord' },
)
export type DeploymentRecord = Static<typeof DeploymentRecord>

/** One page of deployments, newest `deployedAt` first. */
export const DeploymentPage = PageOf(DeploymentStatus, 'DeploymentPage')
export type DeploymentPage = Static<typeof DeploymentPage>

/** A true-or-false filter of a list. */
const FlagParameter = (description: string) =>
  Type.Union([Type.Literal('true'), Type.Literal('false')], { description })

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
    since: Type.Optional(
      DateTimeParameter(
        'deployedAt at or after: a date (its midnight UTC) or an RFC 3339 date-time',
      ),
    ),
    until: Type.Optional(
      DateTimeParameter('deployedAt before: a date (its midnight UTC) or an RFC 3339 date-time'),
    ),
    changeType: Type.Optional(
      Type.Union(
        [
          Type.Literal('initial'),
          Type.Literal('redeploy'),
          Type.Literal('rollback'),
          Type.Literal('forward'),
          Type.Literal('change'),
        ],
        {
          description:
            'Only deployments of this change type (recorded ones); `change`: initial or forward, the deployments change fail rate divides by',
        },
      ),
    ),
    failed: Type.Optional(
      FlagParameter(
        'true: only deployments some signal says failed (`changeFailure` set: as many as the DORA recoveries plus open; with `changeType=change`, the change fail rate’s failed); false: only the others',
      ),
    ),
    rework: Type.Optional(
      FlagParameter(
        'true: only rework as the DORA rework rate counts it (rollbacks, deployments whose commits revert a failed one’s, deployments that fixed an incident); false: only the others',
      ),
    ),
    production: Type.Optional(
      FlagParameter(
        'true: only the production environments (GET /v1/environments says which), what /v1/metrics/dora counts without an environment; false: only the others',
      ),
    ),
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
export type ListDeploymentsQuery = Static<typeof ListDeploymentsQuery>

/** Path of `/v1/deployments/{id}` and of its commits. */
export const DeploymentIdParams = IdParameters('The id in the Location of the 202')
export type DeploymentIdParams = Static<typeof DeploymentIdParams>
