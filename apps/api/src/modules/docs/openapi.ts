import { type TObject, Type } from '@sinclair/typebox'
import { ByRepositoryQuery } from '../catalog/model.ts'
import { DeploymentIdParams, ListDeploymentsQuery } from '../deployments/model.ts'
import { DoraQuery, FrequencyQuery } from '../dora/model.ts'
import { IncidentIdParams, ListIncidentsQuery } from '../incidents/model.ts'
import {
  componentSchemas,
  HEADERS,
  json,
  parameters,
  problem,
  rateLimited,
  rateLimitHeaders,
  ref,
  unauthorized,
  unavailable,
} from './components.ts'

const DESCRIPTION = `Shiplog records deployments: a build pipeline reports that a version (and commit) of an application was deployed to an environment of a repository, and anyone with a key of the same workspace reads back what is deployed where.

Send every \`/v1\` request with \`Authorization: Bearer <key>\`. A key is \`shiplog_\` and 43 characters; an operator issues one with \`bun run keys create\`. A key sees only its own workspace, and does only what its scopes allow: \`read\` (every \`GET\`), \`deployments:write\` (record deployments), \`incidents:write\`, and \`admin\` (all of them); a key created without \`--scope\` has \`deployments:write\` and \`read\`. A request its key has no scope for gets \`403\` (\`/problems/forbidden\`), after authentication and the rate limit and before anything else is checked.

Each key has a token bucket, by default 100 requests a minute (reads count like writes). Every answer to a valid key carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a \`429\` carries \`Retry-After\`, in seconds.

Every error is RFC 9457 problem details (\`application/problem+json\`); its \`type\` names the problem, such as \`/problems/validation-failed\`, and a \`422\` lists every failing field or parameter in \`errors\`. Every answer echoes \`X-Request-Id\`: yours if you sent one, else a new one.`

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

const readErrors = {
  '401': unauthorized,
  '403': problem('The key lacks the `read` scope'),
  '422': problem('A bad query parameter: every one is listed in `errors`'),
  '429': rateLimited(
    'The key’s quota is spent, or the key already has its reads running (2 at once by default); retry after `Retry-After`',
  ),
  '503': unavailable(
    'The database is unavailable, or the read took too long and was stopped (`/problems/timeout`); nothing changed; retry after `Retry-After`',
  ),
}

const NO_PARAMETERS = Type.Object({})

interface Read {
  operationId: string
  tag: 'Deployments' | 'Catalog' | 'Metrics' | 'Incidents'
  summary: string
  description: string
  query?: TObject
  path?: TObject
  schema: object
  notFound?: string
}

function read(operation: Read) {
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.description,
    parameters: [
      ...(operation.path ? parameters(operation.path, 'path') : []),
      ...parameters(operation.query ?? NO_PARAMETERS, 'query'),
    ],
    responses: {
      '200': { description: 'OK', headers: rateLimitHeaders, content: json(operation.schema) },
      ...(operation.notFound ? { '404': problem(operation.notFound) } : {}),
      ...readErrors,
    },
  }
}

const list = (name: 'ApplicationSummary' | 'EnvironmentSummary') => ({
  type: 'object',
  properties: { data: { type: 'array', items: ref(name) } },
  required: ['data'],
})

const incidentWriteErrors = {
  '401': unauthorized,
  '403': problem('The key lacks the `incidents:write` scope'),
  '408': problem('The body did not arrive in time (10 seconds by default); send it in one go'),
  '413': problem('The body is larger than 64 KiB (by default)'),
  '422': problem(
    'Not stored: an invalid or unknown field, an environment without deployments, a cause that is not a recorded deployment of the same environment and application, or `resolvedAt` before `startedAt`; every one is listed in `errors`',
  ),
  '429': rateLimited('The key’s quota is spent; retry after `Retry-After`'),
  '503': unavailable('The database is unavailable; nothing changed; retry after `Retry-After`'),
}

const openIncident = {
  operationId: 'openIncident',
  tags: ['Incidents'],
  summary: 'Open an incident',
  description: `Something went wrong in \`environment\` (one that has deployments), perhaps in one \`app\` (a name, in any repository). \`causeDeploymentId\` names the recorded deployment that caused it: it must have gone to the same environment (and application, when one is named), and the DORA metrics count it as failed until the incident is resolved. \`startedAt\` defaults to the cause's \`deployedAt\`, or to now. Needs the \`incidents:write\` scope.`,
  requestBody: { required: true, content: json(ref('IncidentInput')) },
  responses: {
    '201': {
      description: 'Opened; `Location` names it',
      headers: { Location: { $ref: '#/components/headers/Location' }, ...rateLimitHeaders },
      content: json(ref('Incident')),
    },
    ...incidentWriteErrors,
  },
}

const changeIncident = {
  operationId: 'changeIncident',
  tags: ['Incidents'],
  summary: 'Resolve, reopen or correct an incident',
  description: `Sets the fields sent and leaves the others: \`resolvedAt\` resolves it (\`null\` reopens it), \`causeDeploymentId\` names its cause (\`null\` clears it), \`title\` and \`startedAt\` correct it. Needs the \`incidents:write\` scope.`,
  parameters: parameters(IncidentIdParams, 'path'),
  requestBody: { required: true, content: json(ref('IncidentPatch')) },
  responses: {
    '200': {
      description: 'The incident as it is now',
      headers: rateLimitHeaders,
      content: json(ref('Incident')),
    },
    '404': problem('No incident with this id in the key’s workspace'),
    ...incidentWriteErrors,
  },
}

const putDeploymentCommits = {
  operationId: 'putDeploymentCommits',
  tags: ['Deployments'],
  summary: 'Store the commits a deployment delivered',
  description: `The commits \`git log <previous deployment>..<commit>\` lists in the pipeline's checkout (\`shiplog notify\` sends them), at most 5,000: change lead time starts at their committer time, and a commit that reverts another marks the deployment that delivered that one as failed. For an accepted deployment, queued or recorded; sending a list again replaces the one stored, so a retry is safe. Needs the \`deployments:write\` scope; a body of up to 2 MiB.`,
  parameters: parameters(DeploymentIdParams, 'path'),
  requestBody: { required: true, content: json(ref('DeploymentCommitsInput')) },
  responses: {
    '204': { description: 'Stored', headers: rateLimitHeaders },
    '401': unauthorized,
    '403': problem('The key lacks the `deployments:write` scope'),
    '404': problem('No deployment with this id in the key’s workspace'),
    '408': problem('The body did not arrive in time (10 seconds by default); send it in one go'),
    '409': problem('The deployment failed to record: replay it first'),
    '413': problem('The body is larger than 2 MiB'),
    '422': problem('A bad commit list: every failing field is listed in `errors` (at most 20)'),
    '429': rateLimited('The key’s quota is spent; retry after `Retry-After`'),
    '503': unavailable('The database is unavailable; nothing changed; retry after `Retry-After`'),
  },
}

const voidDeployment = {
  operationId: 'voidDeployment',
  tags: ['Deployments'],
  summary: 'Void a deployment recorded by mistake',
  description: `Kept for audit (when, by which key, and the optional \`reason\`), its receipt then says \`voided\`, and it is left out of every list, the state matrix, every count and every metric; its neighbours' change types and the DORA keys are computed without it. For good: nothing un-voids. Voiding one already voided changes nothing. Needs the \`admin\` scope.`,
  parameters: parameters(DeploymentIdParams, 'path'),
  requestBody: { required: false, content: json(ref('DeploymentVoidInput')) },
  responses: {
    '200': {
      description: 'Its receipt, status voided',
      headers: rateLimitHeaders,
      content: json(ref('DeploymentStatus')),
    },
    '401': unauthorized,
    '403': problem('The key lacks the `admin` scope'),
    '404': problem('No deployment with this id in the key’s workspace'),
    '409': problem('Still queued (void it once recorded), or it failed to record'),
    '422': problem('A bad reason or an unknown field'),
    '429': rateLimited('The key’s quota is spent; retry after `Retry-After`'),
    '503': unavailable('The database is unavailable; nothing changed; retry after `Retry-After`'),
  },
}

const createDeployment = {
  operationId: 'createDeployment',
  tags: ['Deployments'],
  summary: 'Record a deployment',
  description: `Reports that \`version\` (commit \`commitHash\`) of \`app\` was deployed to \`environment\` of \`repositoryFullName\`. The application and the environment are created by the first deployment that names them.

Asynchronous: \`202\` means the deployment is durably queued, not yet recorded; its body is exactly \`{"status":202}\` and its \`Location\` names the receipt, \`GET /v1/deployments/{id}\`. A worker records it, usually within a second.

Needs the \`deployments:write\` scope. Checks run in this order: authentication (\`401\`), rate limit (\`429\`), scope (\`403\`), body (\`413\`, \`408\`, \`400\`, \`422\`), queue (\`503\`). The same app, environment, version, commit and \`deployedAt\` sent twice is recorded once; send an \`Idempotency-Key\` to make retries safe when you omit \`deployedAt\`.`,
  parameters: [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe for 24 hours: the same key with the same body is answered `202` again and queues nothing; with another body it is a `422`. 1 to 255 printable ASCII characters, for example a UUID, bare or in double quotes (257 with them).',
      schema: { type: 'string', minLength: 1, maxLength: 257 },
    },
  ],
  requestBody: { required: true, content: json(ref('DeploymentInput')) },
  responses: {
    '202': {
      description: 'Accepted and durably queued; the worker records it shortly',
      headers: { Location: { $ref: '#/components/headers/Location' }, ...rateLimitHeaders },
      content: json(
        {
          type: 'object',
          properties: { status: { const: 202, description: 'Always 202' } },
          required: ['status'],
          additionalProperties: false,
        },
        { status: 202 },
      ),
    },
    '400': problem('The connection closed before the body was complete; send it again'),
    '401': unauthorized,
    '403': problem('The key lacks the `deployments:write` scope'),
    '408': problem('The body did not arrive in time (10 seconds by default); send it in one go'),
    '413': problem('The body is larger than 64 KiB (by default)'),
    '422': problem(
      'Not accepted: an invalid or unknown field (every one is listed in `errors`), a body that is not a JSON object, a malformed `Idempotency-Key`, or one already used with another body',
      VALIDATION_EXAMPLE,
    ),
    '429': rateLimited(
      'The key’s quota is spent, or too many requests without a valid key came from your address; retry after `Retry-After`',
    ),
    '503': unavailable(
      'Not accepted: the database cannot take it now (`/problems/unavailable`). Type `/problems/outcome-unknown`: it may have been accepted; retry with the same `Idempotency-Key` and it is recorded once',
    ),
  },
}

/**
 * The OpenAPI 3.1 description of the API, built from the same TypeBox schemas the handlers use
 * to validate, so the document cannot drift from the behaviour. It describes what clients call
 * (`/v1`); the probes and `/metrics` are for the cluster and documented in the README.
 */
export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Shiplog',
      version: '1.0.0',
      description: DESCRIPTION,
      contact: { name: 'The team that runs this Shiplog' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This Shiplog' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Deployments', description: 'Record deployments and read them back' },
      { name: 'Catalog', description: 'Applications, environments, and what is deployed where' },
      { name: 'Metrics', description: 'DORA metrics computed from recorded deployments' },
      { name: 'Incidents', description: 'What went wrong in an environment, and what caused it' },
    ],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key: `shiplog_` and 43 characters, with scopes (`read`, `deployments:write`, `incidents:write`, `admin`)',
        },
      },
      schemas: componentSchemas(),
      headers: HEADERS,
    },
    paths: {
      '/v1/deployments': {
        post: createDeployment,
        get: read({
          operationId: 'listDeployments',
          tag: 'Deployments',
          summary: 'List deployments, newest first',
          description: `Newest \`deployedAt\` first, \`limit\` a page; pass \`nextCursor\` as \`cursor\` for the next page (it is \`null\` on the last). Only \`recorded\` deployments unless \`status\` asks for those \`queued\` (accepted, not yet recorded, possibly being retried) or \`failed\` (every attempt failed). Filters combine. A parameter given twice, an unknown one, or a bad value is a \`422\` listing every bad parameter: nothing is silently ignored.`,
          query: ListDeploymentsQuery,
          schema: ref('DeploymentPage'),
        }),
      },
      '/v1/deployments/{id}': {
        get: read({
          operationId: 'getDeployment',
          tag: 'Deployments',
          summary: 'What became of an accepted deployment',
          description: `The receipt named by the \`Location\` of a \`202\`: \`queued\` (accepted, not yet recorded, possibly being retried), \`recorded\`, or \`failed\` (every attempt failed; \`failure\` says why, and an operator can replay it). A delivery recorded as a repeat of an earlier deployment answers \`recorded\` with \`duplicateOf\`.`,
          path: DeploymentIdParams,
          schema: ref('DeploymentStatus'),
          notFound: 'No deployment with this id in the key’s workspace',
        }),
        delete: voidDeployment,
      },
      '/v1/deployments/{id}/commits': {
        put: putDeploymentCommits,
        get: read({
          operationId: 'getDeploymentCommits',
          tag: 'Deployments',
          summary: 'The commits a deployment delivered',
          description: 'As its pipeline sent them, newest committer time first.',
          path: DeploymentIdParams,
          schema: ref('DeploymentCommits'),
          notFound: 'No commits stored for this deployment in the key’s workspace',
        }),
      },
      '/v1/applications': {
        get: read({
          operationId: 'listApplications',
          tag: 'Catalog',
          summary: 'List applications',
          description: `Every application of the workspace (unique per repository and name, any case), with how many deployments it has and its latest by \`deployedAt\`. \`monorepoPath\` comes from its latest deployment that named one.`,
          query: ByRepositoryQuery,
          schema: list('ApplicationSummary'),
        }),
      },
      '/v1/environments': {
        get: read({
          operationId: 'listEnvironments',
          tag: 'Catalog',
          summary: 'List environments',
          description:
            'Every environment of the workspace (any case), with how many deployments reached it and the latest.',
          schema: list('EnvironmentSummary'),
        }),
      },
      '/v1/state': {
        get: read({
          operationId: 'getDeploymentMatrix',
          tag: 'Catalog',
          summary: 'What is deployed where',
          description: `One row per application, one cell per environment in the order of \`environments\`: the latest recorded deployment there, or \`null\` where it was never deployed.`,
          query: ByRepositoryQuery,
          schema: ref('DeploymentMatrix'),
        }),
      },
      '/v1/metrics/dora': {
        get: read({
          operationId: 'getDoraMetrics',
          tag: 'Metrics',
          summary: 'The five DORA keys',
          description: `Deployment frequency, change lead time, change fail rate, failed deployment recovery time and deployment rework rate of one \`environment\` (optionally one \`app\` or \`repository\`) over \`since\`–\`until\` (at most 400 days; default the last 12 weeks), and the same per week (or day) in \`series\`. A figure without data is \`null\`, never 0. How each is computed: the README's "How Shiplog computes DORA".`,
          query: DoraQuery,
          schema: ref('DoraMetrics'),
          notFound: 'No such environment in the key’s workspace',
        }),
      },
      '/v1/incidents': {
        post: openIncident,
        get: read({
          operationId: 'listIncidents',
          tag: 'Incidents',
          summary: 'List incidents, latest first',
          description: `Latest \`startedAt\` first, \`limit\` a page; pass \`nextCursor\` as \`cursor\` for the next page. Filters combine.`,
          query: ListIncidentsQuery,
          schema: ref('IncidentPage'),
        }),
      },
      '/v1/incidents/{id}': {
        get: read({
          operationId: 'getIncident',
          tag: 'Incidents',
          summary: 'One incident',
          description: 'The incident named by the `Location` of its `201`.',
          path: IncidentIdParams,
          schema: ref('Incident'),
          notFound: 'No incident with this id in the key’s workspace',
        }),
        patch: changeIncident,
      },
      '/v1/metrics/deployment-frequency': {
        get: read({
          operationId: 'getDeploymentFrequency',
          tag: 'Metrics',
          summary: 'DORA deployment frequency',
          description: `Recorded deployments into one \`environment\` per UTC day, or per ISO week starting on Monday, for each application, from \`since\` to \`until\`. Every bucket is listed, counts are zero-filled, and \`totals\` adds up all applications. A window is at most 400 days or 260 weeks.`,
          query: FrequencyQuery,
          schema: ref('DeploymentFrequency'),
        }),
      },
    },
  }
}

/** The OpenAPI document's type, for the page that renders it. */
export type OpenApiDocument = ReturnType<typeof openApiDocument>
