import { DeploymentFrequency, DoraMetrics, DoraQuery, FrequencyQuery } from '@shiplog/schema'
import { problem, READ_ERRORS } from '../../route-table/answers.ts'
import { route } from '../../route-table/route.ts'
import { doraMetricsOf } from './five-keys-service.ts'
import { deploymentFrequencyOf } from './frequency-service.ts'

const getDoraMetrics = route({
  method: 'GET',
  path: '/v1/metrics/dora',
  operationId: 'getDoraMetrics',
  tag: 'Metrics',
  summary: 'The five DORA keys',
  description: `Deployment frequency, change lead time, change fail rate, failed deployment recovery time and deployment rework rate of one \`environment\`, or without one of every production environment of the workspace together (\`environments\` names them), (optionally one \`app\` or \`repository\`) over \`since\`–\`until\` (at most 400 days; default the last 12 weeks), and the same per week (or day) in \`series\`. A figure without data is \`null\`, never 0. How each is computed: docs/dora.md in Shiplog's repository.`,
  scope: 'read',
  query: DoraQuery,
  answers: {
    200: { description: 'OK', body: DoraMetrics },
    404: problem(
      'No such environment in the key’s workspace, or (without one) no production environment',
    ),
    ...READ_ERRORS,
  },
  handle: ({ owner, query }, { reads, clients }) =>
    reads.run(owner.keyId, () => doraMetricsOf(clients.replica, owner, query)),
})

const getDeploymentFrequency = route({
  method: 'GET',
  path: '/v1/metrics/deployment-frequency',
  operationId: 'getDeploymentFrequency',
  tag: 'Metrics',
  summary: 'DORA deployment frequency',
  description: `Recorded deployments into one \`environment\` per UTC day, or per ISO week starting on Monday, for each application, from \`since\` to \`until\`. Every bucket is listed, counts are zero-filled, and \`totals\` adds up all applications. A window is at most 400 days or 260 weeks.`,
  scope: 'read',
  query: FrequencyQuery,
  answers: { 200: { description: 'OK', body: DeploymentFrequency }, ...READ_ERRORS },
  handle: ({ owner, query }, { reads, clients }) =>
    reads.run(owner.keyId, () => deploymentFrequencyOf(clients.replica, owner, query)),
})

/**
 * The DORA metrics under `/v1/metrics`: the five keys, and deployment frequency per application.
 * (Prometheus metrics are another thing: `plugins/prometheus`, on METRICS_PORT.)
 */
export const doraRoutes = [getDoraMetrics, getDeploymentFrequency]
