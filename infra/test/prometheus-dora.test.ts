// The DORA gauges as a platform team's Prometheus holds them: Debian's real `prometheus` scrapes
// a running API and worker (their own processes, started as production starts them). After
// deployments, a rollback and an incident, what Prometheus holds equals GET /v1/metrics/dora for
// the same window; beside them a workspace of 3,000 applications keeps the series under the
// bound docs/operations.md states; and every series the dashboards read is on /metrics.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { createSql, type Sql } from '@shiplog/db/client'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import {
  createTestDatabase,
  randomPort,
  seedDeployments,
  type TestDatabase,
  waitFor,
} from '@shiplog/db/testing'
import { ServiceProcess } from '../../apps/faults/src/harness/service.ts'
import { dashboardMetricNames } from './lib/dashboards.ts'
import { REPO } from './lib/manifests.ts'
import { type PrometheusServer, type PromSample, startPrometheus } from './lib/prometheus-server.ts'

const TOP_APPLICATIONS = 50
const FLEET_APPLICATIONS = 3_000

/**
 * The most DORA series one worker replica exports (docs/operations.md, "DORA in Prometheus"):
 * per workspace, 2 environment sets × 2 windows × (7 counts + 3 quantiles); with per-application
 * series, one truncated gauge and 2 × 2 × (3 counts + 1 quantile) per kept application; and the
 * computation's timestamp.
 */
const doraSeriesBound = (workspaces: number, topApplications: number) =>
  1 + workspaces * (40 + (topApplications > 0 ? 1 + 16 * topApplications : 0))

const HOUR = 3_600_000
const sha = (n: number) => n.toString(16).padStart(40, 'd')

let database: TestDatabase
let sql: Sql
let api: ServiceProcess
let worker: ServiceProcess
let prometheus: PrometheusServer
let base = ''
let workerMetrics = ''
let apiMetrics = ''
let key = ''

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

/** Records a deployment `hoursAgo` and waits for its receipt to say recorded; answers its id. */
async function deploy(step: {
  app?: string
  environment?: string
  version: string
  commit: number
  hoursAgo: number
  /** Commits listed with it: number, committed this many hours before the deployment. */
  commits?: [number, number][]
}): Promise<string> {
  const deployedAt = new Date(Date.now() - step.hoursAgo * HOUR).toISOString()
  const response = await send('POST', '/v1/deployments', {
    repositoryFullName: 'acme/shop',
    app: step.app ?? 'checkout',
    environment: step.environment ?? 'production',
    version: step.version,
    commitHash: sha(step.commit),
    deployedAt,
  })
  expect(response.status).toBe(202)
  const id = (response.headers.get('location') as string).split('/').at(-1) as string
  await waitFor(
    async () =>
      ((await (await send('GET', `/v1/deployments/${id}`)).json()) as { status: string }).status ===
      'recorded',
    `deployment ${step.version} recorded`,
    30_000,
  )
  if (step.commits) {
    const commits = step.commits.map(([n, hoursBefore]) => {
      const committedAt = new Date(Date.parse(deployedAt) - hoursBefore * HOUR).toISOString()
      return { sha: sha(n), committedAt, authoredAt: committedAt, reverts: [] }
    })
    const listed = await send('PUT', `/v1/deployments/${id}/commits`, { truncated: false, commits })
    expect(listed.status).toBe(204)
  }
  return id
}

beforeAll(async () => {
  database = await createTestDatabase()
  sql = createSql(database.url, { applicationName: 'shiplog-prometheus-test', maxConnections: 2 })
  const [fleet] = await sql<{ id: string }[]>`
    insert into workspaces (slug) values ('fleet') returning id::text`
  // 75 repositories of 40 applications, deploying over the last 28 days.
  await seedDeployments(sql, {
    workspaceId: fleet?.id as string,
    deployments: 30_000,
    repositories: FLEET_APPLICATIONS / 40,
    applicationsPerRepository: 40,
    days: 28,
  })
  key = (
    await issueApiKey(sql, {
      workspace: 'acme',
      name: 'prometheus-test',
      scopes: ['deployments:write', 'incidents:write', 'read'],
      rateLimitPerMinute: 100_000,
    })
  ).key
  const apiPort = randomPort()
  const apiMetricsPort = randomPort()
  const workerPort = randomPort()
  base = `http://127.0.0.1:${apiPort}`
  workerMetrics = `http://127.0.0.1:${workerPort}/metrics`
  apiMetrics = `http://127.0.0.1:${apiMetricsPort}/metrics`
  api = new ServiceProcess('apps/api/src/main.ts', {
    DATABASE_URL: database.url,
    PORT: String(apiPort),
    METRICS_PORT: String(apiMetricsPort),
    LOG_REQUESTS: 'false',
  })
  worker = new ServiceProcess('apps/worker/src/main.ts', {
    DATABASE_URL: database.url,
    WORKER_PORT: String(workerPort),
    WORKER_POLL_INTERVAL_MS: '50',
    DORA_METRICS_ENABLED: 'true',
    DORA_METRICS_INTERVAL_SECONDS: '15',
    DORA_METRICS_PER_APPLICATION: 'true',
    DORA_METRICS_TOP_APPLICATIONS: String(TOP_APPLICATIONS),
  })
  await api.untilReady(`${base}/readyz`, 'the API to be ready', 30_000)
  await worker.untilReady(`http://127.0.0.1:${workerPort}/readyz`, 'the worker to be ready', 30_000)
  // The job names the chart's monitors set, which the dashboards and alerts select.
  prometheus = await startPrometheus({
    'shiplog-api': [`127.0.0.1:${apiMetricsPort}`],
    'shiplog-worker': [`127.0.0.1:${workerPort}`],
  })
}, 120_000)

afterAll(async () => {
  await prometheus?.stop()
  await Promise.all([api?.stop(), worker?.stop()])
  await sql?.end()
  await database?.drop()
})

/** Every DORA sample Prometheus holds now, of one instant query, so all come from one scrape. */
const doraSamples = () => prometheus.query('{__name__=~"shiplog_dora_.+"}')

const heldValue = (samples: PromSample[], name: string, labels: Record<string, string>) => {
  const found = samples.filter(
    ({ metric }) =>
      metric.__name__ === name &&
      Object.entries(labels).every(([label, value]) => metric[label] === value),
  )
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: several samples`)
  return found[0]?.value ?? null
}

test('after deployments, a rollback and an incident, Prometheus holds what /v1/metrics/dora says for the same window', async () => {
  // checkout in production: v0 three weeks ago (only the 28 days count it); v2 then v3, which
  // the rollback v4 (v2's commit) fails and recovers; v5, which an incident fails and recovers.
  await deploy({ version: 'v0', commit: 1, hoursAgo: 21 * 24 })
  await deploy({ version: 'v2', commit: 2, hoursAgo: 120, commits: [[2, 10]] })
  await deploy({ version: 'v3', commit: 3, hoursAgo: 96, commits: [[3, 4]] })
  await deploy({ version: 'v4', commit: 2, hoursAgo: 72 })
  const v5 = await deploy({ version: 'v5', commit: 4, hoursAgo: 48, commits: [[4, 30]] })
  await deploy({ environment: 'staging', version: 's2', commit: 2, hoursAgo: 121 })
  const opened = await send('POST', '/v1/incidents', {
    environment: 'production',
    title: 'Checkout returns 500s',
    startedAt: new Date(Date.now() - 40 * HOUR).toISOString(),
    resolvedAt: new Date(Date.now() - 30 * HOUR).toISOString(),
    causeDeploymentId: v5,
  })
  expect(opened.status).toBe(201)
  const recordedBy = Date.now() / 1000

  // The worker computes every 15 s; Prometheus scrapes every second.
  let samples: PromSample[] = []
  await waitFor(
    async () => {
      samples = await doraSamples()
      return (heldValue(samples, 'shiplog_dora_computed_timestamp_seconds', {}) ?? 0) >= recordedBy
    },
    'DORA gauges computed after the incident, in Prometheus',
    60_000,
  )
  const until = new Date(
    (heldValue(samples, 'shiplog_dora_computed_timestamp_seconds', {}) as number) * 1000,
  )
  for (const [window, days] of [
    ['7d', 7],
    ['28d', 28],
  ] as const) {
    const since = new Date(until.getTime() - days * 24 * HOUR)
    const response = await send(
      'GET',
      `/v1/metrics/dora?since=${since.toISOString()}&until=${until.toISOString()}`,
    )
    expect(response.status).toBe(200)
    const body = (await response.json()) as {
      deploymentFrequency: { deployments: number }
      changeLeadTime: { commits: number; medianSeconds: number | null; p90Seconds: number | null }
      changeFailRate: { failed: number; deployments: number }
      failedDeploymentRecoveryTime: {
        recoveries: number
        medianSeconds: number | null
        open: number
      }
      deploymentReworkRate: { rework: number }
    }
    const labels = { workspace: 'acme', production: 'true', window }
    const held = (name: string, quantile?: string) =>
      heldValue(samples, `shiplog_dora_${name}`, quantile ? { ...labels, quantile } : labels)
    const expected = {
      deployments: body.deploymentFrequency.deployments,
      changes: body.changeFailRate.deployments,
      failed: body.changeFailRate.failed,
      rework: body.deploymentReworkRate.rework,
      recoveries: body.failedDeploymentRecoveryTime.recoveries,
      open: body.failedDeploymentRecoveryTime.open,
      commits: body.changeLeadTime.commits,
      leadMedian: body.changeLeadTime.medianSeconds,
      leadP90: body.changeLeadTime.p90Seconds,
      recoveryMedian: body.failedDeploymentRecoveryTime.medianSeconds,
    }
    expect({
      deployments: held('deployments'),
      changes: held('changes'),
      failed: held('failed_changes'),
      rework: held('rework_deployments'),
      recoveries: held('recoveries'),
      open: held('open_failures'),
      commits: held('lead_time_commits'),
      leadMedian: held('lead_time_seconds', '0.5'),
      leadP90: held('lead_time_seconds', '0.9'),
      recoveryMedian: held('recovery_time_seconds', '0.5'),
    }).toEqual(expected)
    // Two failures (v3 by the rollback, v5 by the incident), both recovered.
    expect({ failed: expected.failed, recoveries: expected.recoveries }).toEqual({
      failed: 2,
      recoveries: 2,
    })
    expect(expected.deployments).toBe(window === '7d' ? 4 : 5)
  }
}, 120_000)

test('3,000 applications: the series stay under the bound docs/operations.md states, the rest counted as left out', async () => {
  const samples = await doraSamples()
  const bound = doraSeriesBound(2, TOP_APPLICATIONS)
  expect(samples.length).toBeGreaterThan(TOP_APPLICATIONS * 4)
  expect(samples.length).toBeLessThanOrEqual(bound)
  const fleetApps = new Set(
    samples
      .filter(({ metric }) => metric.workspace === 'fleet' && metric.app !== undefined)
      .map(({ metric }) => metric.app),
  )
  expect(fleetApps.size).toBe(TOP_APPLICATIONS)
  const [deployed] = await sql<{ count: number }[]>`
    select count(distinct application_id)::int as count from deployments d
      join workspaces w on w.id = d.workspace_id
     where w.slug = 'fleet' and d.deployed_at >= now() - interval '28 days'`
  expect(deployed?.count).toBeGreaterThan(2_000)
  expect(heldValue(samples, 'shiplog_dora_applications_truncated', { workspace: 'fleet' })).toBe(
    (deployed?.count as number) - TOP_APPLICATIONS,
  )
  // The documented figure: one workspace of 3,000 applications, the default top 50.
  const operations = readFileSync(`${REPO}docs/operations.md`, 'utf8')
  expect(operations).toContain(`${doraSeriesBound(1, 50).toLocaleString('en')} series`)
  expect(operations).toContain(`${doraSeriesBound(1, 0)} series`)
})

test('every series the dashboards read is on the running API’s or worker’s /metrics', async () => {
  const exposed = (await Promise.all([apiMetrics, workerMetrics].map((url) => fetch(url)))).map(
    (response) => response.text(),
  )
  const declared = new Set(
    (await Promise.all(exposed)).flatMap((text) =>
      [...text.matchAll(/^# TYPE (\S+) (\S+)/gm)].flatMap(([, name, type]) =>
        type === 'histogram'
          ? [`${name}_bucket`, `${name}_sum`, `${name}_count`]
          : [name as string],
      ),
    ),
  )
  // Counted only where a read replica is configured.
  const conditional = ['shiplog_db_read_connections']
  const missing = dashboardMetricNames().filter(
    (name) => !declared.has(name) && !conditional.includes(name),
  )
  expect(missing).toEqual([])
})
