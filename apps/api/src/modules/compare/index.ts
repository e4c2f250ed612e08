import { CompareQuery, Comparison } from '@shiplog/schema'
import { preferredType } from '../../kernel/accept.ts'
import { problem, READ_ERRORS } from '../../route-table/answers.ts'
import { route } from '../../route-table/route.ts'
import { releaseNotes } from './release-notes.ts'
import { compareEnvironments } from './service.ts'

const NOTES_EXAMPLE = `# checkout: staging → production

staging runs 1.4.0 (\`9fceb02d0ae5\`, deployed 2026-05-06 10:00 UTC); production runs 1.2.0 (\`a94a8fe5ccb1\`, deployed 2026-05-04 10:00 UTC).

2 commits wait, in 2 deployments of staging:

- Fix the checkout total ([\`9fceb02d0ae5\`](https://github.com/acme/shop/commit/9fceb02d0ae598e95dc970b74767f19372d61af8)) — Ada
- Add gift cards ([\`e83c5163316f\`](https://github.com/acme/shop/commit/e83c5163316f89bfbde7d9ab23ca2e25604af290)) — Grace
`

const compare = route({
  method: 'GET',
  path: '/v1/compare',
  operationId: 'compareEnvironments',
  tag: 'Catalog',
  summary: 'What is in one environment and not yet in another',
  description: `For one \`app\`: what \`from\` (say staging) and \`to\` (say production) run now, the commits delivered to \`from\` and not to \`to\` (newest first, with subject, author and a link when the pipeline sent them), and the deployments of \`from\` since the latest whose commit \`to\` has run. Commits come from the lists pipelines send (\`PUT /v1/deployments/{id}/commits\`): \`complete\` is \`false\`, and \`reason\` says why, when a deployment waiting sent none, a list was capped, \`from\` is more than 100 deployments ahead, or more than 1,000 commits wait. \`Accept: text/markdown\` answers release notes instead.`,
  scope: 'read',
  query: CompareQuery,
  answers: {
    200: {
      description: 'OK: JSON, or release notes for `Accept: text/markdown`',
      body: Comparison,
      alternatives: { 'text/markdown': { example: NOTES_EXAMPLE } },
    },
    404: problem('No such application or environment in the key’s workspace'),
    ...READ_ERRORS,
  },
  handle: async ({ owner, query, request }, { reads, clients }) => {
    const comparison = await reads.run(owner.keyId, () =>
      compareEnvironments(clients.replica, owner, query),
    )
    const type = preferredType(request.headers.get('accept'), ['application/json', 'text/markdown'])
    if (type === 'application/json') return comparison
    return new Response(releaseNotes(comparison), {
      headers: { 'content-type': 'text/markdown; charset=utf-8' },
    })
  },
})

/** `/v1/compare`: two environments of one application, side by side. */
export const compareRoutes = [compare]
