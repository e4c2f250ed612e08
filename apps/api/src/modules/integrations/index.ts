import { IdParameters } from '@shiplog/schema'
import {
  Integration,
  IntegrationDeliveries,
  IntegrationInput,
  IntegrationList,
  IntegrationPatch,
  IntegrationWithSecret,
  ListDeliveriesQuery,
  validateIntegrationInput,
  validateIntegrationPatch,
} from '@shiplog/schema/integration'
import { keyActor } from '../../plugins/auth/index.ts'
import { problem, READ_ERRORS, WRITE_ERRORS } from '../../route-table/answers.ts'
import { route } from '../../route-table/route.ts'
import {
  changeWorkspaceIntegration,
  createWorkspaceIntegration,
  deleteWorkspaceIntegration,
  integrationDeliveriesPage,
  rotateWorkspaceIntegrationSecret,
  workspaceIntegration,
  workspaceIntegrations,
} from './service.ts'

const IntegrationIdParams = IdParameters('The integration’s id')
const NOT_FOUND = problem('No integration with this id in the key’s workspace')
const originOf = (request: Request) => new URL(request.url).origin

const SENDERS = `GitHub (\`github\`: a repository's or organization's webhook, content type \`application/json\`, events *Deployment statuses* and *Pushes*), GitLab (\`gitlab\`: a project's or group's webhook, *Deployment events* and *Push events*), CDEvents senders (\`cdevents\`), Argo CD (\`argocd\`) and Flux (\`flux\`) report deployments; Alertmanager (\`alertmanager\`), PagerDuty (\`pagerduty\`, webhooks v3: give its signing secret as \`secret\`) and Opsgenie (\`opsgenie\`) open and resolve incidents, as CDEvents' incident events do. The answer's \`url\` is where the sender posts and \`secret\` is shown in it only: paste both into the hook (docs/integrations.md has each sender's settings).`

const createIntegrationRoute = route({
  method: 'POST',
  path: '/v1/integrations',
  operationId: 'createIntegration',
  tag: 'Integrations',
  summary: 'Connect a sender that reports deployments, pushes or incidents by itself',
  description: `${SENDERS}

\`mapping\` says where the fields a delivery lacks come from (a fixed value, \`{"from": "<dot path>"}\` into the delivery, or a list of these tried in order); the answer's \`mappingInEffect\` shows every field's sources, defaults included. Needs the \`admin\` scope.`,
  scope: 'admin',
  body: {
    schema: IntegrationInput,
    check: validateIntegrationInput,
    expected: 'a source, a name and perhaps a mapping',
  },
  answers: {
    201: { description: 'Created; the secret is shown this once', body: IntegrationWithSecret },
    409: problem('Another integration of the workspace has this name'),
    422: problem('A bad field: every one is listed in `errors`'),
    ...WRITE_ERRORS,
  },
  handle: ({ owner, body, request }, { clients, integrations }) =>
    createWorkspaceIntegration(
      clients.primary,
      integrations,
      owner,
      keyActor(owner),
      body.value,
      originOf(request),
    ),
})

const listIntegrationsRoute = route({
  method: 'GET',
  path: '/v1/integrations',
  operationId: 'listIntegrations',
  tag: 'Integrations',
  summary: 'The workspace’s integrations',
  description: 'By name, without their secrets. Needs the `admin` scope.',
  scope: 'admin',
  answers: { 200: { description: 'OK', body: IntegrationList }, ...READ_ERRORS },
  handle: async ({ owner, request }, { clients, integrations }) => ({
    data: await workspaceIntegrations(clients.primary, integrations, owner, originOf(request)),
  }),
})

const getIntegrationRoute = route({
  method: 'GET',
  path: '/v1/integrations/{id}',
  operationId: 'getIntegration',
  tag: 'Integrations',
  summary: 'One integration',
  description: 'Without its secret. Needs the `admin` scope.',
  scope: 'admin',
  params: IntegrationIdParams,
  answers: { 200: { description: 'OK', body: Integration }, 404: NOT_FOUND, ...READ_ERRORS },
  handle: ({ owner, params, request }, { clients, integrations }) =>
    workspaceIntegration(clients.primary, integrations, owner, params.id, originOf(request)),
})

const patchIntegrationRoute = route({
  method: 'PATCH',
  path: '/v1/integrations/{id}',
  operationId: 'changeIntegration',
  tag: 'Integrations',
  summary: 'Change an integration’s name or mapping',
  description:
    'A `mapping` replaces the one in effect for deliveries handled from then on; deployments already recorded keep theirs. Needs the `admin` scope.',
  scope: 'admin',
  params: IntegrationIdParams,
  body: {
    schema: IntegrationPatch,
    check: validateIntegrationPatch,
    expected: 'a name, a mapping or both',
  },
  answers: {
    200: { description: 'Changed', body: Integration },
    404: NOT_FOUND,
    409: problem('Another integration of the workspace has this name'),
    422: problem('A bad field: every one is listed in `errors`'),
    ...WRITE_ERRORS,
  },
  handle: ({ owner, params, body, request }, { clients, integrations }) =>
    changeWorkspaceIntegration(
      clients.primary,
      integrations,
      owner,
      keyActor(owner),
      params.id,
      body.value,
      originOf(request),
    ),
})

const rotateSecretRoute = route({
  method: 'POST',
  path: '/v1/integrations/{id}/secret',
  operationId: 'rotateIntegrationSecret',
  tag: 'Integrations',
  summary: 'Rotate an integration’s secret',
  description:
    'The new secret is shown in this answer only. The previous one keeps working until `previousSecretValidUntil` (`INTEGRATION_SECRET_GRACE_SECONDS`, an hour by default), so the sender can be switched without a lost delivery; a rotation during that time ends the older one at once. Needs the `admin` scope.',
  scope: 'admin',
  params: IntegrationIdParams,
  answers: {
    200: { description: 'Rotated', body: IntegrationWithSecret },
    404: NOT_FOUND,
    422: problem(
      'A pagerduty integration: PagerDuty makes its secret, so a new integration takes the new one',
    ),
    ...WRITE_ERRORS,
  },
  handle: ({ owner, params, request }, { clients, integrations }) =>
    rotateWorkspaceIntegrationSecret(
      clients.primary,
      integrations,
      owner,
      keyActor(owner),
      params.id,
      originOf(request),
    ),
})

const deleteIntegrationRoute = route({
  method: 'DELETE',
  path: '/v1/integrations/{id}',
  operationId: 'deleteIntegration',
  tag: 'Integrations',
  summary: 'Disconnect an integration',
  description:
    'Its URL answers `404` from then on and its deliveries list is gone; what it recorded stays. Needs the `admin` scope.',
  scope: 'admin',
  params: IntegrationIdParams,
  answers: { 204: { description: 'Deleted' }, 404: NOT_FOUND, ...WRITE_ERRORS },
  async handle({ owner, params }, { clients, integrations }) {
    await deleteWorkspaceIntegration(
      clients.primary,
      integrations,
      owner,
      keyActor(owner),
      params.id,
    )
  },
})

const deliveriesRoute = route({
  method: 'GET',
  path: '/v1/integrations/{id}/deliveries',
  operationId: 'listIntegrationDeliveries',
  tag: 'Integrations',
  summary: 'What the sender delivered, and what became of each',
  description:
    'Newest first, `limit` a page (100 at most and by default), `nextCursor` as `cursor` for older ones; the latest 100 are kept, and every one of the last 7 days: `waiting` for the worker, `recorded` (with the deployment it produced, or how many commits a push listed), `duplicate` (of which delivery), `ignored` or `refused` (with the reason). Needs the `admin` scope.',
  scope: 'admin',
  params: IntegrationIdParams,
  query: ListDeliveriesQuery,
  answers: {
    200: { description: 'OK', body: IntegrationDeliveries },
    404: NOT_FOUND,
    ...READ_ERRORS,
  },
  handle: ({ owner, params, query }, { clients }) =>
    integrationDeliveriesPage(clients.primary, owner, params.id, query),
})

/** `/v1/integrations`: connect senders, rotate their secrets, read their deliveries. */
export const integrationRoutes = [
  createIntegrationRoute,
  listIntegrationsRoute,
  getIntegrationRoute,
  patchIntegrationRoute,
  rotateSecretRoute,
  deleteIntegrationRoute,
  deliveriesRoute,
]
