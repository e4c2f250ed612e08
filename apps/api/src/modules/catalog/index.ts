import {
  ApplicationList,
  ByRepositoryQuery,
  DeploymentMatrix,
  EnvironmentList,
  EnvironmentNameParams,
  EnvironmentPlaceInput,
  EnvironmentSummary,
  validateEnvironmentPlace,
} from '@shiplog/schema'
import { problem, READ_ERRORS, WRITE_ERRORS } from '../../route-table/answers.ts'
import { route } from '../../route-table/route.ts'
import {
  listWorkspaceApplications,
  listWorkspaceEnvironments,
  placeWorkspaceEnvironment,
  workspaceState,
} from './service.ts'

const listApplications = route({
  method: 'GET',
  path: '/v1/applications',
  operationId: 'listApplications',
  tag: 'Catalog',
  summary: 'List applications',
  description: `Every application of the workspace (unique per repository and name, any case), with how many deployments it has and its latest by \`deployedAt\`. \`monorepoPath\` comes from its latest deployment that named one.`,
  scope: 'read',
  query: ByRepositoryQuery,
  answers: { 200: { description: 'OK', body: ApplicationList }, ...READ_ERRORS },
  handle: ({ owner, query }, { reads, clients }) =>
    reads.run(owner.keyId, () => listWorkspaceApplications(clients.replica, owner, query)),
})

const listEnvironments = route({
  method: 'GET',
  path: '/v1/environments',
  operationId: 'listEnvironments',
  tag: 'Catalog',
  summary: 'List environments',
  description: `Every environment of the workspace (any case) in pipeline order, with its \`position\`, whether it is \`production\`, how many deployments reached it and the latest. Until set (\`PUT /v1/environments/{name}\`), both follow its name: \`dev\` or \`development\` 10, \`test\` or \`qa\` 20, any other name 30, \`staging\`, \`stage\` or \`preprod\` 40, and production 50, where a name is production when \`prod\`, \`production\`, \`prd\` or \`live\` is a word of it (\`eu-production\`, not \`pre-prod\`). Equal positions go alphabetically.`,
  scope: 'read',
  answers: { 200: { description: 'OK', body: EnvironmentList }, ...READ_ERRORS },
  handle: ({ owner }, { reads, clients }) =>
    reads.run(owner.keyId, () => listWorkspaceEnvironments(clients.replica, owner)),
})

const placeEnvironment = route({
  method: 'PUT',
  path: '/v1/environments/{name}',
  operationId: 'placeEnvironment',
  tag: 'Catalog',
  summary: 'Set an environment’s place in the pipeline',
  description: `Sets \`position\` (0–1000, lower first) and whether the environment is \`production\`; a field left out stays as it is, \`null\` goes back to the rule of its name (see \`GET /v1/environments\`). The overview's columns and the environments of every list follow. Needs the \`environments:write\` scope.`,
  scope: 'environments:write',
  params: EnvironmentNameParams,
  body: {
    schema: EnvironmentPlaceInput,
    check: validateEnvironmentPlace,
    expected: '`position`, `production` or both',
  },
  answers: {
    200: { description: 'The environment as listed now', body: EnvironmentSummary },
    404: problem('No environment of this name in the key’s workspace'),
    422: problem('A bad or unknown field: every one is listed in `errors`'),
    ...WRITE_ERRORS,
  },
  handle: ({ owner, params, body }, { clients }) =>
    placeWorkspaceEnvironment(clients.primary, owner, params.name, body.value),
})

const getDeploymentMatrix = route({
  method: 'GET',
  path: '/v1/state',
  operationId: 'getDeploymentMatrix',
  tag: 'Catalog',
  summary: 'What is deployed where',
  description: `One row per application, one cell per environment in the order of \`environments\`: the latest recorded deployment there, or \`null\` where it was never deployed.`,
  scope: 'read',
  query: ByRepositoryQuery,
  answers: { 200: { description: 'OK', body: DeploymentMatrix }, ...READ_ERRORS },
  handle: ({ owner, query }, { reads, clients }) =>
    reads.run(owner.keyId, () => workspaceState(clients.replica, owner, query)),
})

/**
 * The workspace's catalogue: its applications and environments (each with its deployment count
 * and latest deployment) and what is deployed where. Read from the replica when there is one.
 */
export const catalogRoutes = [
  listApplications,
  listEnvironments,
  placeEnvironment,
  getDeploymentMatrix,
]
