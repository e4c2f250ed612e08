import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { waitFor } from '@shiplog/db/testing'
import type { Incident } from '@shiplog/schema'
import type { IntegrationWithSecret } from '@shiplog/schema/integration'
import { validDeployment } from '@shiplog/schema/testing'
import { parse, stringify } from 'yaml'
import {
  type AlertmanagerServer,
  type PushedAlert,
  startAlertmanager,
} from '../support/alertmanager-server.ts'
import { harnessPerFile } from '../support/harness.ts'
import { createIntegration } from '../support/integrations.ts'

// Debian's real Alertmanager, configured by the receiver users copy (infra/alertmanager/
// shiplog.yaml), sends its webhook to a served Shiplog: two alerts of one group open one incident
// blaming the deployment before them; resolving both resolves it; the change fail rate and the
// recovery time of GET /v1/metrics/dora move as worked out by hand.

const RECEIVER = new URL('../../../../infra/alertmanager/shiplog.yaml', import.meta.url)
const h = harnessPerFile()
let alertmanager: AlertmanagerServer
let served: { port: number; stop: () => Promise<void> }
let integration: IntegrationWithSecret
let key = ''
const HOUR = 3_600_000
// Whole seconds: Alertmanager keeps the times it is given.
const now = Math.floor(Date.now() / 1000) * 1000
const iso = (ms: number) => new Date(ms).toISOString()
const V1_AT = now - 3 * HOUR
const V2_AT = now - HOUR

beforeAll(async () => {
  ;({ key } = await h.createKey({
    workspace: 'alertmanager-live',
    scopes: ['deployments:write', 'read', 'admin'],
  }))
  for (const [version, commit, at] of [
    ['v1', 'a', V1_AT],
    ['v2', 'b', V2_AT],
  ] as const) {
    const body = validDeployment({ version, commitHash: commit.repeat(40), deployedAt: iso(at) })
    expect((await h.post(body, { key })).status).toBe(202)
  }
  await h.drain()
  // Port 0: the system picks a free one (a random one may be taken by another test's server).
  served = await h.serve(0)
  const { port } = served
  integration = await createIntegration(h, key, { source: 'alertmanager', name: 'alertmanager' })
  // The documented receiver as it is, at this integration's URL, grouping at once (a test cannot
  // wait out the default 30 s group_wait).
  const config = parse(await readFile(RECEIVER, 'utf8'))
  config.route.routes[0].group_wait = '1s'
  config.route.routes[0].group_interval = '1s'
  config.receivers[1].webhook_configs[0].url = `http://127.0.0.1:${port}${new URL(integration.url).pathname}`
  alertmanager = await startAlertmanager(stringify(config), {
    credentialsFile: '/etc/alertmanager/secrets/shiplog/token',
    value: integration.secret,
  })
}, 60_000)

afterAll(async () => {
  await alertmanager?.stop()
  await served?.stop()
})

async function incidents(): Promise<Incident[]> {
  return ((await (await h.get('/v1/incidents', { key })).json()) as { data: Incident[] }).data
}

/** Runs the worker until `check` holds on the incidents Shiplog shows. */
async function until(check: (all: Incident[]) => boolean, what: string) {
  await waitFor(
    async () => {
      await h.settle()
      return check(await incidents())
    },
    what,
    30_000,
  )
}

async function dora() {
  const window = `since=${iso(now - 24 * HOUR)}&until=${iso(now + HOUR)}`
  const response = await h.get(`/v1/metrics/dora?environment=production&${window}`, { key })
  return (await response.json()) as {
    changeFailRate: { failed: number; deployments: number; ratio: number | null }
    failedDeploymentRecoveryTime: { recoveries: number; medianSeconds: number | null; open: number }
  }
}

test('two alerts of one group open one incident; resolving them resolves it; DORA moves as worked out by hand', async () => {
  expect((await dora()).changeFailRate).toMatchObject({ failed: 0, deployments: 2 })
  // severity=page: the documented route sends only paging alerts to Shiplog.
  const labels = {
    alertname: 'CheckoutErrors',
    environment: 'production',
    app: 'checkout',
    severity: 'page',
  }
  const alerts: PushedAlert[] = [
    { labels: { ...labels, pod: 'checkout-1' }, startsAt: iso(now - 30 * 60_000) },
    { labels: { ...labels, pod: 'checkout-2' }, startsAt: iso(now - 20 * 60_000) },
  ].map((alert) => ({
    ...alert,
    annotations: { summary: 'Checkout answers 5xx' },
    generatorURL: 'http://prometheus.example:9090/graph',
  }))
  await alertmanager.push(alerts)
  await until((all) => all.length === 1, 'the incident Alertmanager’s firing group opens')
  expect((await incidents())[0]).toMatchObject({
    status: 'open',
    title: 'CheckoutErrors: Checkout answers 5xx',
    startedAt: iso(now - 30 * 60_000),
    source: 'alertmanager',
    app: 'checkout',
  })
  // v2 (an hour ago) failed: 1 failed change of 2, not recovered yet.
  expect(await dora()).toMatchObject({
    changeFailRate: { failed: 1, deployments: 2, ratio: 0.5 },
    failedDeploymentRecoveryTime: { recoveries: 0, open: 1 },
  })

  // Both resolved, the later one a minute ago: the incident ends then, 59 minutes after v2.
  const resolvedAt = now - 60_000
  await alertmanager.push([
    { ...alerts[0], endsAt: iso(now - 2 * 60_000) },
    { ...alerts[1], endsAt: iso(resolvedAt) },
  ] as PushedAlert[])
  await until((all) => all[0]?.status === 'resolved', 'the incident resolved by the group')
  const all = await incidents()
  expect(all).toHaveLength(1)
  expect(all[0]?.resolvedAt).toBe(iso(resolvedAt))
  expect(await dora()).toMatchObject({
    changeFailRate: { failed: 1, deployments: 2, ratio: 0.5 },
    failedDeploymentRecoveryTime: {
      recoveries: 1,
      medianSeconds: (resolvedAt - V2_AT) / 1000,
      open: 0,
    },
  })
}, 90_000)
