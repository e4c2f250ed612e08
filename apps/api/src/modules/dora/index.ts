import { DeploymentFrequency, DoraMetrics, DoraQuery, FrequencyQuery } from '@shiplog/schema'
import { preferredType } from '../../kernel/accept.ts'
import { csvHeaders } from '../../kernel/csv.ts'
import { problem, READ_ERRORS } from '../../route-table/answers.ts'
import { route } from '../../route-table/route.ts'
import { DORA_CSV_COLUMNS, doraSeriesCsv } from './series-csv.ts'
import { deploymentFrequencyOf, doraMetricsOf } from './service.ts'

const getDoraMetrics = route({
  method: 'GET',
  path: '/v1/metrics/dora',
  operationId: 'getDoraMetrics',
  tag: 'Metrics',
  summary: 'The five DORA keys',
  description: `Deployment frequency, change lead time, change fail rate, failed deployment recovery time and deployment rework rate of one \`environment\`, or without one of every production environment of the workspace together (\`environments\` names them), (optionally one \`app\` or \`repository\`) over \`since\`–\`until\` (at most 400 days; default the last 12 weeks), and the same per week (or day) in \`series\`; \`Accept: text/csv\` answers the series, one line per bucket with the columns ${DORA_CSV_COLUMNS.map((column) => `\`${column}\``).join(', ')}. A figure without data is \`null\`, never 0. How each is computed: docs/dora.md in Shiplog's repository.`,
  scope: 'read',
  query: DoraQuery,
  answers: {
    200: {
      description: 'OK: the figures as JSON, or the series as CSV for `Accept: text/csv`',
      body: DoraMetrics,
      alternatives: {
        'text/csv': {
          example: `${DORA_CSV_COLUMNS.join(',')}\r\n2026-04-06T00:00:00.000Z,12,1.7142857142857142,30,5400,86400,1,10,0.1,1,3600,0,2,12,0.16666666666666666\r\n`,
        },
      },
    },
    404: problem(
      'No such environment in the key’s workspace, or (without one) no production environment',
    ),
    ...READ_ERRORS,
  },
  handle: async ({ owner, query, request }, { reads, clients }) => {
    const metrics = await reads.run(owner.keyId, () => doraMetricsOf(clients.replica, owner, query))
    const type = preferredType(request.headers.get('accept'), ['application/json', 'text/csv'])
    if (type === 'application/json') return metrics
    return new Response(doraSeriesCsv(metrics), { headers: csvHeaders('dora.csv') })
  },
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
