import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createSql } from '@shiplog/db/client'
import { computeDoraGaugesIfDue } from '@shiplog/db/dora/gauge-snapshot'
import { validDeployment } from '@shiplog/schema/testing'
import { recordAuditedHistory } from '../support/audited-history.ts'
import { type Harness, startHarness } from '../support/harness.ts'
import { sampleOf } from '../support/prometheus.ts'

// The DORA figures on the worker's /metrics: counts and quantiles per workspace, production or
// other environments, and 7 or 28 days, each equal to GET /v1/metrics/dora for the same window;
// per application for the busiest only. The history is April 2026's (audited-history.ts), so the
// windows end in it: computed "now" is 2026-04-24 at noon and a half second.

const NOW = new Date('2026-04-24T12:00:00.500Z')
const UNTIL = '2026-04-24T12:00:00.000Z'
const WINDOWS = { '7d': '2026-04-17T12:00:00.000Z', '28d': '2026-03-27T12:00:00.000Z' }
const WORKSPACES = ['gauges-one', 'gauges-two']

let h: Harness
const keys = new Map<string, string>()
beforeAll(async () => {
  h = await startHarness(
    {},
    {
      DORA_METRICS_ENABLED: 'true',
      DORA_METRICS_PER_APPLICATION: 'true',
      DORA_METRICS_TOP_APPLICATIONS: '1',
    },
  )
  for (const workspace of WORKSPACES) {
    keys.set(workspace, (await recordAuditedHistory(h, workspace)).key)
  }
  await h.worker.doraGauges?.refresh(NOW)
}, 60_000)
afterAll(() => h?.close())

const scraped = async () => (await h.worker.scrape()).body

async function dora(workspace: string, query: string) {
  const response = await h.get(`/v1/metrics/dora?${query}`, { key: keys.get(workspace) })
  expect(response.status).toBe(200)
  return (await response.json()) as {
    deploymentFrequency: { deployments: number }
    changeLeadTime: { commits: number; medianSeconds: number | null; p90Seconds: number | null }
    changeFailRate: { failed: number; deployments: number }
    failedDeploymentRecoveryTime: { recoveries: number; medianSeconds: number | null; open: number }
    deploymentReworkRate: { rework: number }
  }
}

/** A gauge's value, or null when it has no sample with these labels (an absent quantile). */
function gauge(text: string, name: string, labels: Record<string, string>): number | null {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`)
  const line = text
    .split('\n')
    .find(
      (candidate) =>
        (candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `)) &&
        wanted.every((pair) => candidate.includes(pair)) &&
        (labels.app !== undefined || !candidate.includes('app="')),
    )
  return line === undefined ? null : Number(line.split(' ').at(-1))
}

/** The figures as /metrics says them, in the API's shape, for one group of series. */
function figuresOfGauges(text: string, labels: Record<string, string>, prefix = 'shiplog_dora_') {
  const of = (name: string, extra: Record<string, string> = {}) =>
    gauge(text, `${prefix}${name}`, { ...labels, ...extra })
  return {
    deploymentFrequency: { deployments: of('deployments') },
    changeLeadTime: {
      commits: of('lead_time_commits'),
      medianSeconds: of('lead_time_seconds', { quantile: '0.5' }),
      p90Seconds: of('lead_time_seconds', { quantile: '0.9' }),
    },
    changeFailRate: { failed: of('failed_changes'), deployments: of('changes') },
    failedDeploymentRecoveryTime: {
      recoveries: of('recoveries'),
      medianSeconds: of('recovery_time_seconds', { quantile: '0.5' }),
      open: of('open_failures'),
    },
    deploymentReworkRate: { rework: of('rework_deployments') },
  }
}

const apiFigures = (body: Awaited<ReturnType<typeof dora>>) => ({
  deploymentFrequency: { deployments: body.deploymentFrequency.deployments },
  changeLeadTime: body.changeLeadTime,
  changeFailRate: {
    failed: body.changeFailRate.failed,
    deployments: body.changeFailRate.deployments,
  },
  failedDeploymentRecoveryTime: body.failedDeploymentRecoveryTime,
  deploymentReworkRate: { rework: body.deploymentReworkRate.rework },
})

for (const workspace of WORKSPACES) {
  for (const [window, since] of Object.entries(WINDOWS)) {
    test(`${workspace}, ${window}: production's gauges are /v1/metrics/dora over every production environment`, async () => {
      const body = await dora(workspace, `since=${since}&until=${UNTIL}`)
      expect(body.deploymentFrequency.deployments).toBeGreaterThan(0)
      const labels = { workspace, production: 'true', window }
      expect(figuresOfGauges(await scraped(), labels)).toEqual(apiFigures(body))
    })

    test(`${workspace}, ${window}: the other environments' gauges are staging's /v1/metrics/dora`, async () => {
      const body = await dora(workspace, `environment=staging&since=${since}&until=${UNTIL}`)
      const labels = { workspace, production: 'false', window }
      expect(figuresOfGauges(await scraped(), labels)).toEqual(apiFigures(body))
    })
  }
}

test('the figures count failures, recoveries and lead times: the 28 days are not all zeros', async () => {
  const text = await scraped()
  const labels = { workspace: 'gauges-one', production: 'true', window: '28d' }
  expect(gauge(text, 'shiplog_dora_failed_changes', labels)).toBeGreaterThan(0)
  expect(gauge(text, 'shiplog_dora_recoveries', labels)).toBeGreaterThan(0)
  expect(gauge(text, 'shiplog_dora_open_failures', labels)).toBeGreaterThan(0)
  expect(gauge(text, 'shiplog_dora_rework_deployments', labels)).toBeGreaterThan(0)
  expect(
    gauge(text, 'shiplog_dora_lead_time_seconds', { ...labels, quantile: '0.9' }),
  ).toBeGreaterThan(0)
  expect(gauge(text, 'shiplog_dora_computed_timestamp_seconds', {})).toBe(Date.parse(UNTIL) / 1000)
})

test('per application: the busiest only, its gauges its own /v1/metrics/dora, the rest counted as left out', async () => {
  const text = await scraped()
  const apps = new Set(
    [...text.matchAll(/^shiplog_dora_application_deployments\{[^}]*app="([^"]+)"/gm)].map(
      (m) => m[1],
    ),
  )
  // checkout has the most deployments in the 28 days; search is left out.
  expect([...apps]).toEqual(['checkout'])
  expect(sampleOf(text, 'shiplog_dora_applications_truncated', { workspace: 'gauges-one' })).toBe(1)
  for (const [window, since] of Object.entries(WINDOWS)) {
    const body = await dora('gauges-one', `app=checkout&since=${since}&until=${UNTIL}`)
    const labels = { workspace: 'gauges-one', production: 'true', window, app: 'checkout' }
    const of = (name: string, extra = {}) =>
      gauge(text, `shiplog_dora_application_${name}`, { ...labels, ...extra })
    expect({
      deployments: of('deployments'),
      changes: of('changes'),
      failed: of('failed_changes'),
      median: of('lead_time_seconds', { quantile: '0.5' }),
    }).toEqual({
      deployments: body.deploymentFrequency.deployments,
      changes: body.changeFailRate.deployments,
      failed: body.changeFailRate.failed,
      median: body.changeLeadTime.medianSeconds,
    })
  }
})

test('no sample carries a timestamp of its own', async () => {
  const samples = (await scraped()).split('\n').filter((line) => line.startsWith('shiplog_dora_'))
  expect(samples.length).toBeGreaterThan(50)
  for (const line of samples) expect(line).toMatch(/^shiplog_dora_[a-z_]+(\{[^}]*\})? \S+$/)
})

test('a scrape reads what was computed: a new deployment shows only once the figures are computed again', async () => {
  const labels = { workspace: 'gauges-one', production: 'true', window: '7d' }
  const before = gauge(await scraped(), 'shiplog_dora_deployments', labels)
  const response = await h.post(
    validDeployment({ version: 'late', deployedAt: '2026-04-24T11:00:00Z' }),
    { key: keys.get('gauges-one') },
  )
  expect(response.status).toBe(202)
  await h.drain()
  expect(gauge(await scraped(), 'shiplog_dora_deployments', labels)).toBe(before)
  // Computed a moment ago: not due yet, on this replica or another.
  await h.worker.doraGauges?.refresh(new Date(NOW.getTime() + 1_000))
  expect(gauge(await scraped(), 'shiplog_dora_deployments', labels)).toBe(before)
  // An interval later (300 s by default) it is due, and the deployment is counted.
  await h.worker.doraGauges?.refresh(new Date(NOW.getTime() + 300_000))
  expect(gauge(await scraped(), 'shiplog_dora_deployments', labels)).toBe(Number(before) + 1)
})

test('two replicas due at once: one computes, the other does not', async () => {
  const other = createSql(h.databaseUrl, { applicationName: 'shiplog-worker-other' })
  try {
    const settings = { intervalMs: 60_000, topApplications: 0 }
    const later = new Date(NOW.getTime() + 3_600_000)
    const computed = await Promise.all([
      computeDoraGaugesIfDue(h.worker.sql, settings, later),
      computeDoraGaugesIfDue(other, settings, later),
    ])
    expect(computed.filter(Boolean)).toEqual([true])
  } finally {
    await other.end()
  }
})

test('off by default: no DORA series on a worker not asked for them', async () => {
  const plain = await startHarness()
  try {
    expect(plain.worker.doraGauges).toBeUndefined()
    expect((await plain.worker.scrape()).body).not.toContain('shiplog_dora_')
  } finally {
    await plain.close()
  }
})
