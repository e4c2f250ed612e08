import { FirstDeliveryPage, ListCommitsQuery } from '@shiplog/schema'
import { preferredType } from '../../kernel/accept.ts'
import { csvResponse, refusePaging } from '../../kernel/csv.ts'
import { READ_ERRORS } from '../../route-table/answers.ts'
import { route } from '../../route-table/route.ts'
import { COMMIT_CSV_COLUMNS, exportWorkspaceCommits, listWorkspaceCommits } from './service.ts'

const listCommits = route({
  method: 'GET',
  path: '/v1/commits',
  operationId: 'listCommits',
  tag: 'Metrics',
  summary: 'The commits change lead time counted',
  description: `Each commit where its application first delivered it to an environment, by a deployment other than the application's first there: what \`changeLeadTime\` of \`GET /v1/metrics/dora\` counts, so with the same \`environment\` (or \`production=true\` for a request without one), \`app\` or \`repository\`, \`since\` and \`until\` the list holds exactly \`changeLeadTime.commits\` items. Newest \`deployedAt\` first, \`limit\` a page; pass \`nextCursor\` as \`cursor\` for the next page. Without \`environment\` or \`production\`, every environment.

\`Accept: text/csv\` answers every matching commit instead of a page, streamed (\`limit\` and \`cursor\` are refused), with the columns ${COMMIT_CSV_COLUMNS.map((column) => `\`${column}\``).join(', ')}.`,
  scope: 'read',
  query: ListCommitsQuery,
  answers: {
    200: {
      description: 'OK: a page as JSON, or every matching commit as CSV for `Accept: text/csv`',
      body: FirstDeliveryPage,
      alternatives: {
        'text/csv': {
          example: `${COMMIT_CSV_COLUMNS.join(',')}\r\na94a8fe5ccb19ba61c4c0873d391e987982fbbd3,0190f3c4-5b2e-7c1d-9e8f-a1b2c3d4e5f6,checkout,production,2026-05-04T10:00:00.000Z,2026-05-04T08:30:00.000Z,5400,Faster checkout,Ada,https://github.com/acme/shop/commit/a94a8fe5ccb19ba61c4c0873d391e987982fbbd3\r\n`,
        },
      },
    },
    ...READ_ERRORS,
  },
  handle: ({ owner, query, request }, { reads, clients }) => {
    const type = preferredType(request.headers.get('accept'), ['application/json', 'text/csv'])
    if (type === 'text/csv') {
      refusePaging(new URL(request.url).searchParams, 'commit')
      return csvResponse(reads, owner.keyId, 'commits.csv', (push) =>
        exportWorkspaceCommits(clients, owner, query, push),
      )
    }
    return reads.run(owner.keyId, () => listWorkspaceCommits(clients, owner, query))
  },
})

/** `/v1/commits`: the first deliveries behind change lead time. */
export const commitRoutes = [listCommits]
