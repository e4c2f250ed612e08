import {
  DeploymentAccepted,
  DeploymentCommits,
  DeploymentCommitsInput,
  DeploymentHeaders,
  DeploymentIdParams,
  DeploymentInput,
  DeploymentPage,
  DeploymentStatus,
  DeploymentVoidInput,
  ListDeploymentsQuery,
  validateDeployment,
  validateDeploymentCommits,
  validateDeploymentHeaders,
  validateDeploymentVoid,
} from '@shiplog/schema'
import { preferredType } from '../../kernel/accept.ts'
import { keyActor } from '../../plugins/auth/index.ts'
import {
  problem,
  READ_ERRORS,
  rateLimited,
  unavailable,
  WRITE_ERRORS,
} from '../../route-table/answers.ts'
import { route } from '../../route-table/route.ts'
import { COMMITS_BODY_MAX_BYTES, deploymentCommitsOf, storeDeploymentCommits } from './commits.ts'
import { DEPLOYMENT_CSV_COLUMNS } from './csv.ts'
import { exportWorkspaceDeployments } from './export.ts'
import {
  acceptDeployment,
  getDeployment,
  listWorkspaceDeployments,
  voidWorkspaceDeployment,
} from './service.ts'
import { sourceOfRequest } from './source.ts'

const NOT_FOUND = 'No deployment with this id in the key’s workspace'

const VALIDATION_EXAMPLE = {
  type: '/problems/validation-failed',
  title: 'Validation failed',
  status: 422,
  detail: 'The request has 2 invalid fields: fix every one listed in errors and send it again.',
  errors: [
    {
      field: 'commitHash',
      message:
        'must be 7 to 70 hexadecimal characters: the full Git commit SHA (was a template variable left unexpanded?)',
    },
    { field: 'deployed_at', message: 'is not a known field; did you mean "deployedAt"?' },
  ],
}

const createDeployment = route({
  method: 'POST',
  path: '/v1/deployments',
  operationId: 'createDeployment',
  tag: 'Deployments',
  summary: 'Record a deployment',
  description: `Reports that \`version\` (commit \`commitHash\`) of \`app\` was deployed to \`environment\` of \`repositoryFullName\`. The application and the environment are created by the first deployment that names them.

Asynchronous: \`202\` means the deployment is durably queued, not yet recorded; its body is exactly \`{"status":202}\` and its \`Location\` names the receipt, \`GET /v1/deployments/{id}\`. A worker records it, usually within a second.

Its receipt says where it came from: \`source\` is \`cli\` when the \`User-Agent\` is Shiplog's client (\`shiplog-client\`: the CLI, the GitHub Action, the GitLab template), else \`api\`.

Needs the \`deployments:write\` scope. Checks run in this order: authentication (\`401\`), rate limit (\`429\`), scope (\`403\`), body (\`413\`, \`408\`, \`400\`, \`422\`), queue (\`503\`). The same app, environment, version, commit and \`deployedAt\` sent twice is recorded once; send an \`Idempotency-Key\` to make retries safe when you omit \`deployedAt\`.`,
  scope: 'deployments:write',
  query: 'ignored',
  headers: { schema: DeploymentHeaders, check: validateDeploymentHeaders },
  body: { schema: DeploymentInput, check: validateDeployment, expected: 'the deployment fields' },
  answers: {
    202: {
      description: 'Accepted and durably queued; the worker records it shortly',
      body: DeploymentAccepted,
      example: { status: 202 },
      headers: ['Location'],
    },
    422: problem(
      'Not accepted: an invalid or unknown field (every one is listed in `errors`), a body that is not a JSON object, a malformed `Idempotency-Key`, or one already used with another body',
      VALIDATION_EXAMPLE,
    ),
    429: rateLimited(
      'The key’s quota is spent, or too many requests without a valid key came from your address; retry after `Retry-After`',
    ),
    503: unavailable(
      'Not accepted: the database cannot take it now (`/problems/unavailable`). Type `/problems/outcome-unknown`: it may have been accepted; retry with the same `Idempotency-Key` and it is recorded once',
    ),
  },
  async handle(
    { owner, body, headers, request, answerHeaders, receivedAt },
    { queue },
  ): Promise<DeploymentAccepted> {
    const id = await acceptDeployment(queue, owner, body, {
      receivedAt,
      source: sourceOfRequest(request.headers.get('user-agent')),
      idempotencyKey: headers.value.idempotencyKey,
    })
    answerHeaders.location = `/v1/deployments/${id}`
    return { status: 202 }
  },
})

const listDeployments = route({
  method: 'GET',
  path: '/v1/deployments',
  operationId: 'listDeployments',
  tag: 'Deployments',
  summary: 'List deployments, newest first',
  description: `Newest \`deployedAt\` first, \`limit\` a page; pass \`nextCursor\` as \`cursor\` for the next page (it is \`null\` on the last). Only \`recorded\` deployments unless \`status\` asks for those \`queued\` (accepted, not yet recorded, possibly being retried) or \`failed\` (every attempt failed). Filters combine. A parameter given twice, an unknown one, or a bad value is a \`422\` listing every bad parameter: nothing is silently ignored.

\`Accept: text/csv\` answers every matching deployment instead of a page, streamed (so \`limit\` and \`cursor\` are refused): a header line, then one line per deployment with the columns ${DEPLOYMENT_CSV_COLUMNS.map((column) => `\`${column}\``).join(', ')}; a cell that starts with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return gets a leading \`'\`, so no spreadsheet runs it.`,
  scope: 'read',
  query: ListDeploymentsQuery,
  answers: {
    200: {
      description: 'OK: a page as JSON, or every matching deployment as CSV for `Accept: text/csv`',
      body: DeploymentPage,
      alternatives: {
        'text/csv': {
          example: `${DEPLOYMENT_CSV_COLUMNS.join(',')}\r\n0190f3c4-5b2e-7c1d-9e8f-a1b2c3d4e5f6,recorded,2026-05-04T10:00:00.000Z,acme/shop,checkout,production,1.4.2,a94a8fe5ccb19ba61c4c0873d391e987982fbbd3,forward,release-bot,,,2026-05-04T10:00:00.120Z,2026-05-04T10:00:00.350Z\r\n`,
        },
      },
    },
    ...READ_ERRORS,
  },
  handle: ({ owner, query, request }, { reads, clients, queue }) => {
    const type = preferredType(request.headers.get('accept'), ['application/json', 'text/csv'])
    if (type === 'text/csv') {
      const given = new URL(request.url).searchParams
      return exportWorkspaceDeployments(clients, queue, reads, owner, owner.keyId, query, given)
    }
    return reads.run(owner.keyId, () => listWorkspaceDeployments(clients, queue, owner, query))
  },
})

const getDeploymentReceipt = route({
  method: 'GET',
  path: '/v1/deployments/{id}',
  operationId: 'getDeployment',
  tag: 'Deployments',
  summary: 'What became of an accepted deployment',
  description: `The receipt named by the \`Location\` of a \`202\`: \`queued\` (accepted, not yet recorded, possibly being retried), \`recorded\`, or \`failed\` (every attempt failed; \`failure\` says why, and an operator can replay it). A delivery recorded as a repeat of an earlier deployment answers \`recorded\` with \`duplicateOf\`.`,
  scope: 'read',
  params: DeploymentIdParams,
  answers: {
    200: { description: 'OK', body: DeploymentStatus },
    404: problem(NOT_FOUND),
    ...READ_ERRORS,
  },
  handle: ({ owner, params }, { receipts, clients, queue }) =>
    receipts.run(owner.keyId, () => getDeployment(clients, queue, owner, params.id)),
})

const voidDeployment = route({
  method: 'DELETE',
  path: '/v1/deployments/{id}',
  operationId: 'voidDeployment',
  tag: 'Deployments',
  summary: 'Void a deployment recorded by mistake',
  description: `Kept for audit (when, by which key, and the optional \`reason\`), its receipt then says \`voided\`, and it is left out of every list, the state matrix, every count and every metric; its neighbours' change types and the DORA keys are computed without it. For good: nothing un-voids. Voiding one already voided changes nothing. Needs the \`admin\` scope.`,
  scope: 'admin',
  params: DeploymentIdParams,
  body: {
    schema: DeploymentVoidInput,
    check: validateDeploymentVoid,
    expected: 'at most a `reason`',
    optional: true,
  },
  answers: {
    200: { description: 'Its receipt, status voided', body: DeploymentStatus },
    404: problem(NOT_FOUND),
    409: problem('Still queued (void it once recorded), or it failed to record'),
    422: problem('A bad reason or an unknown field'),
    ...WRITE_ERRORS,
  },
  handle: ({ owner, params, body }, { clients, queue }) =>
    voidWorkspaceDeployment(clients, queue, owner, keyActor(owner), params.id, body.value.reason),
})

const putDeploymentCommits = route({
  method: 'PUT',
  path: '/v1/deployments/{id}/commits',
  operationId: 'putDeploymentCommits',
  tag: 'Deployments',
  summary: 'Store the commits a deployment delivered',
  description: `The commits \`git log <previous deployment>..<commit>\` lists in the pipeline's checkout (\`shiplog notify\` sends them), at most 5,000: change lead time starts at their committer time, and a commit that reverts another, where it is first delivered, marks the deployment that first delivered that one as failed. For an accepted deployment, queued or recorded; sending a list again replaces the one stored, so a retry is safe, but an empty list never replaces stored commits. Needs the \`deployments:write\` scope; a body of up to 2 MiB.`,
  scope: 'deployments:write',
  params: DeploymentIdParams,
  body: {
    schema: DeploymentCommitsInput,
    check: validateDeploymentCommits,
    expected: 'the commits the deployment delivered',
    maxBytes: COMMITS_BODY_MAX_BYTES,
  },
  answers: {
    204: { description: 'Stored' },
    404: problem(NOT_FOUND),
    409: problem(
      'The deployment failed to record (replay it first), or the list is empty and commits are stored (they are kept)',
    ),
    422: problem('A bad commit list: every failing field is listed in `errors` (at most 20)'),
    ...WRITE_ERRORS,
  },
  async handle({ owner, params, body }, { clients, queue }) {
    await storeDeploymentCommits(clients, queue, owner, params.id, body.value)
  },
})

const getDeploymentCommits = route({
  method: 'GET',
  path: '/v1/deployments/{id}/commits',
  operationId: 'getDeploymentCommits',
  tag: 'Deployments',
  summary: 'The commits a deployment delivered',
  description: 'As its pipeline sent them, newest committer time first.',
  scope: 'read',
  params: DeploymentIdParams,
  answers: {
    200: { description: 'OK', body: DeploymentCommits },
    404: problem('No commits stored for this deployment in the key’s workspace'),
    ...READ_ERRORS,
  },
  handle: ({ owner, params }, { reads, clients }) =>
    reads.run(owner.keyId, () => deploymentCommitsOf(clients, owner, params.id)),
})

/** `/v1/deployments`: record one, read them back, void one, and the commits each delivered. */
export const deploymentRoutes = [
  createDeployment,
  listDeployments,
  getDeploymentReceipt,
  voidDeployment,
  putDeploymentCommits,
  getDeploymentCommits,
]
