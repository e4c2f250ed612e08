import {
  Incident,
  IncidentIdParams,
  IncidentInput,
  IncidentPage,
  IncidentPatch,
  ListIncidentsQuery,
  validateIncidentInput,
  validateIncidentPatch,
} from '@shiplog/schema'
import { keyActor } from '../../plugins/auth/index.ts'
import { problem, READ_ERRORS, WRITE_ERRORS } from '../../route-table/answers.ts'
import { route } from '../../route-table/route.ts'
import { changeIncident, getIncident, listWorkspaceIncidents, openIncident } from './service.ts'

const NOT_FOUND = problem('No incident with this id in the key’s workspace')
const NOT_STORED = problem(
  'Not stored: an invalid or unknown field, an environment without deployments, a cause that is not a recorded deployment of the same environment and application, or `resolvedAt` before `startedAt`; every one is listed in `errors`',
)

// Writes go to the primary, so a 201's Location reads back at once: reads use it too (incidents
// are few).

const open = route({
  method: 'POST',
  path: '/v1/incidents',
  operationId: 'openIncident',
  tag: 'Incidents',
  summary: 'Open an incident',
  description: `Something went wrong in \`environment\` (one that has deployments), perhaps in one \`app\` (a name, in any repository). \`causeDeploymentId\` names the recorded deployment that caused it: it must have gone to the same environment (and application, when one is named), and the DORA metrics count it as failed until the incident is resolved. \`startedAt\` defaults to the cause's \`deployedAt\`, or to now. Needs the \`incidents:write\` scope.`,
  scope: 'incidents:write',
  body: { schema: IncidentInput, check: validateIncidentInput, expected: 'the incident fields' },
  answers: {
    201: { description: 'Opened; `Location` names it', body: Incident, headers: ['Location'] },
    422: NOT_STORED,
    ...WRITE_ERRORS,
  },
  async handle({ owner, body, answerHeaders, receivedAt }, { clients }): Promise<Incident> {
    const incident = await openIncident(
      clients.primary,
      owner,
      keyActor(owner),
      body.value,
      receivedAt,
    )
    answerHeaders.location = `/v1/incidents/${incident.id}`
    return incident
  },
})

const change = route({
  method: 'PATCH',
  path: '/v1/incidents/{id}',
  operationId: 'changeIncident',
  tag: 'Incidents',
  summary: 'Resolve, reopen or correct an incident',
  description: `Sets the fields sent and leaves the others: \`resolvedAt\` resolves it (\`null\` reopens it), \`causeDeploymentId\` names its cause (\`null\` clears it), \`title\` and \`startedAt\` correct it. Needs the \`incidents:write\` scope.`,
  scope: 'incidents:write',
  params: IncidentIdParams,
  body: {
    schema: IncidentPatch,
    check: validateIncidentPatch,
    expected: 'the incident fields to change',
  },
  answers: {
    200: { description: 'The incident as it is now', body: Incident },
    404: NOT_FOUND,
    422: NOT_STORED,
    ...WRITE_ERRORS,
  },
  handle: ({ owner, params, body }, { clients }) =>
    changeIncident(clients.primary, owner, keyActor(owner), params.id, body.value),
})

const list = route({
  method: 'GET',
  path: '/v1/incidents',
  operationId: 'listIncidents',
  tag: 'Incidents',
  summary: 'List incidents, latest first',
  description: `Latest \`startedAt\` first, \`limit\` a page; pass \`nextCursor\` as \`cursor\` for the next page. Filters combine.`,
  scope: 'read',
  query: ListIncidentsQuery,
  answers: { 200: { description: 'OK', body: IncidentPage }, ...READ_ERRORS },
  handle: ({ owner, query }, { reads, clients }) =>
    reads.run(owner.keyId, () => listWorkspaceIncidents(clients.primary, owner, query)),
})

const get = route({
  method: 'GET',
  path: '/v1/incidents/{id}',
  operationId: 'getIncident',
  tag: 'Incidents',
  summary: 'One incident',
  description: 'The incident named by the `Location` of its `201`.',
  scope: 'read',
  params: IncidentIdParams,
  answers: { 200: { description: 'OK', body: Incident }, 404: NOT_FOUND, ...READ_ERRORS },
  handle: ({ owner, params }, { reads, clients }) =>
    reads.run(owner.keyId, () => getIncident(clients.primary, owner, params.id)),
})

/** `/v1/incidents`: open one, change or resolve it, read them. */
export const incidentRoutes = [open, list, get, change]
