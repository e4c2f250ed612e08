import { type Static, Type } from '@sinclair/typebox'
import { PageOf } from './page.ts'
import type { CommitCursor } from './page-cursor.ts'
import { DateTimeParameter, NameParameter, PageParameters } from './parameters.ts'

const Nullable = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description: `${description}; null when not sent` })

/** A commit where it was first delivered, as change lead time counts it. */
export const FirstDelivery = Type.Object(
  {
    sha: Type.String({ description: 'The commit, lower-case hexadecimal' }),
    deploymentId: Type.String({
      format: 'uuid',
      description: 'The deployment that first delivered it',
    }),
    app: Type.String(),
    environment: Type.String(),
    deployedAt: Type.String({ format: 'date-time', description: 'When that deployment ran' }),
    committedAt: Type.String({ format: 'date-time', description: 'Committer time' }),
    leadTimeSeconds: Type.Number({ description: 'deployedAt minus committedAt' }),
    subject: Nullable('The first line of its message'),
    author: Nullable('Its author’s name'),
    url: Nullable('The commit on its code host, from the list’s webUrl'),
  },
  { $id: 'FirstDelivery' },
)
export type FirstDelivery = Static<typeof FirstDelivery>

/** One page of first deliveries, newest deployment first. */
export const FirstDeliveryPage = PageOf(FirstDelivery, 'FirstDeliveryPage')
export type FirstDeliveryPage = Static<typeof FirstDeliveryPage>

/** Query of `GET /v1/commits`. */
export const ListCommitsQuery = Type.Object(
  {
    environment: NameParameter('Only this environment (any case)'),
    production: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description:
          'true: only the production environments (GET /v1/environments says which), what /v1/metrics/dora counts without an environment; false: only the others',
      }),
    ),
    app: NameParameter('Only this application (any case)'),
    repository: NameParameter('Only the applications of this repository, owner/name (any case)'),
    since: Type.Optional(
      DateTimeParameter(
        'deployedAt at or after: a date (its midnight UTC) or an RFC 3339 date-time',
      ),
    ),
    until: Type.Optional(
      DateTimeParameter('deployedAt before: a date (its midnight UTC) or an RFC 3339 date-time'),
    ),
    limit: PageParameters.limit,
    cursor: Type.Optional(
      Type.Unsafe<CommitCursor>({
        type: 'string',
        format: 'commit-cursor',
        maxLength: 300,
        description: '`nextCursor` of the previous page',
      }),
    ),
  },
  { additionalProperties: false },
)
export type ListCommitsQuery = Static<typeof ListCommitsQuery>
