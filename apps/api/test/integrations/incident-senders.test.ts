import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import type { Incident } from '@shiplog/schema'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'
import {
  deliverAlertmanager,
  deliverOpsgenie,
  deliverPagerDuty,
  pagerDutySignature,
} from '../support/incident-senders.ts'
import { adminKey, createIntegration, deliveriesOf } from '../support/integrations.ts'
import { sampleOf } from '../support/prometheus.ts'

// Incidents from the alerting tools, through the receivers, the worker and the read API: an
// Alertmanager group, a PagerDuty incident and an Opsgenie alert each open, resolve and reopen a
// Shiplog incident; the change fail rate and recovery time follow; a person's correction stays.

const h = harnessPerFile()

const PAGERDUTY_SECRET = 'pd-signing-secret-0123456789abcdef'
const at = (minutes: number) =>
  new Date(Date.UTC(2026, 9, 1, 12, 0) + minutes * 60_000).toISOString()

/** A workspace with checkout v1 then v2 in production (v2 at minute 0) and staging's v1. */
async function workspace(name: string) {
  const { key } = await h.createKey({
    workspace: name,
    scopes: ['deployments:write', 'incidents:write', 'read', 'admin'],
  })
  const ids: Record<string, string> = {}
  for (const [version, environment, minutes] of [
    ['v1', 'production', -600],
    ['v2', 'production', 0],
    ['v1', 'staging', -700],
  ] as const) {
    const response = await h.post(
      validDeployment({
        version,
        environment,
        commitHash: (version === 'v1' ? 'a' : 'b').repeat(40),
        deployedAt: at(minutes),
      }),
      { key },
    )
    expect(response.status).toBe(202)
    ids[`${version} ${environment}`] = (response.headers.get('location') as string)
      .split('/')
      .at(-1) as string
  }
  await h.drain()
  return { key, ids }
}

async function incidentsOf(key: string): Promise<Incident[]> {
  const response = await h.get('/v1/incidents?limit=100', { key })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: Incident[] }).data
}

interface AlertSpec {
  fingerprint: string
  startsAt: string
  endsAt?: string
}

/** A notification as Alertmanager's webhook writes it (version 4). */
function notification(
  alerts: AlertSpec[],
  options: { labels?: Record<string, string>; truncated?: number; status?: string } = {},
): string {
  const labels = options.labels ?? {
    alertname: 'HighErrorRate',
    environment: 'production',
    app: 'checkout',
  }
  const firing = alerts.some((alert) => alert.endsAt === undefined)
  return JSON.stringify({
    receiver: 'shiplog',
    status: options.status ?? (firing ? 'firing' : 'resolved'),
    alerts: alerts.map((alert) => ({
      status: alert.endsAt === undefined ? 'firing' : 'resolved',
      labels: { ...labels, instance: `pod-${alert.fingerprint}` },
      annotations: { summary: 'Checkout answers 5xx' },
      startsAt: alert.startsAt,
      endsAt: alert.endsAt ?? '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=errors',
      fingerprint: alert.fingerprint,
    })),
    groupLabels: { alertname: labels.alertname },
    commonLabels: labels,
    commonAnnotations: { summary: 'Checkout answers 5xx' },
    externalURL: 'http://alertmanager.example:9093',
    version: '4',
    groupKey: `{}:{alertname="${labels.alertname}"}`,
    truncatedAlerts: options.truncated ?? 0,
  })
}

async function dora(key: string) {
  const response = await h.get(
    `/v1/metrics/dora?environment=production&since=${at(-24 * 60)}&until=${at(24 * 60)}`,
    { key },
  )
  expect(response.status).toBe(200)
  return (await response.json()) as {
    changeFailRate: { failed: number; deployments: number }
    failedDeploymentRecoveryTime: { recoveries: number; medianSeconds: number | null; open: number }
  }
}

test('Alertmanager: a group of two alerts opens one incident blaming the deployment before it; resolving them resolves it', async () => {
  const { key, ids } = await workspace('am-basic')
  const integration = await createIntegration(h, key, { source: 'alertmanager', name: 'am' })
  const firing = [
    { fingerprint: 'a1', startsAt: at(10) },
    { fingerprint: 'a2', startsAt: at(12) },
  ]
  expect((await deliverAlertmanager(h, integration, notification(firing))).status).toBe(202)
  // Alertmanager sends a group again as it was (repeat_interval, a retry): a duplicate.
  expect((await deliverAlertmanager(h, integration, notification(firing))).status).toBe(200)
  await h.settle()
  const [opened] = await incidentsOf(key)
  expect(opened).toMatchObject({
    status: 'open',
    environment: 'production',
    app: 'checkout',
    title: 'HighErrorRate: Checkout answers 5xx',
    startedAt: at(10),
    causeDeploymentId: ids['v2 production'],
    source: 'alertmanager',
    senderUrl: 'http://prometheus.example:9090/graph?g0.expr=errors',
  })
  expect((await dora(key)).failedDeploymentRecoveryTime).toMatchObject({ recoveries: 0, open: 1 })

  // Resolved, with Basic auth this time (http_config.basic_auth).
  const resolved = [
    { ...firing[0], endsAt: at(40) },
    { ...firing[1], endsAt: at(45) },
  ] as AlertSpec[]
  const response = await deliverAlertmanager(h, integration, notification(resolved), {
    basic: true,
  })
  expect(response.status).toBe(202)
  await h.settle()
  const incidents = await incidentsOf(key)
  expect(incidents).toHaveLength(1)
  expect(incidents[0]).toMatchObject({ status: 'resolved', resolvedAt: at(45) })
  // v2 failed, and recovered when its incident was resolved, 45 minutes after it was deployed
  // (recovery time counts from the failed deployment, docs/dora.md).
  expect(await dora(key)).toMatchObject({
    changeFailRate: { failed: 1, deployments: 2 },
    failedDeploymentRecoveryTime: { recoveries: 1, medianSeconds: 45 * 60, open: 0 },
  })
  const deliveries = await deliveriesOf(h, key, integration)
  expect(deliveries.map((delivery) => [delivery.event, delivery.outcome])).toEqual([
    ['resolved', 'recorded'],
    ['firing', 'duplicate'],
    ['firing', 'recorded'],
  ])
})

test('Alertmanager: the resolve before the firing ends the same; a later firing opens anew; truncated alerts resolve with their group', async () => {
  const { key } = await workspace('am-order')
  const integration = await createIntegration(h, key, { source: 'alertmanager', name: 'am' })
  const deliver = async (body: string) => {
    expect((await deliverAlertmanager(h, integration, body)).status).toBe(202)
    await h.settle()
  }
  await deliver(notification([{ fingerprint: 'a1', startsAt: at(10), endsAt: at(30) }]))
  await deliver(notification([{ fingerprint: 'a1', startsAt: at(10) }]))
  expect(
    (await incidentsOf(key)).map(({ startedAt, resolvedAt }) => [startedAt, resolvedAt]),
  ).toEqual([[at(10), at(30)]])
  // The same alert firing again after it resolved: another failure, another incident. The
  // notification lists one alert of three; its group resolving resolves them all.
  await deliver(notification([{ fingerprint: 'a1', startsAt: at(60) }], { truncated: 2 }))
  expect((await incidentsOf(key)).map(({ status }) => status)).toEqual(['open', 'resolved'])
  await deliver(
    notification([{ fingerprint: 'a9', startsAt: at(61), endsAt: at(90) }], {
      truncated: 2,
      status: 'resolved',
    }),
  )
  expect(
    (await incidentsOf(key)).map(({ startedAt, resolvedAt }) => [startedAt, resolvedAt]),
  ).toEqual([
    [at(60), at(90)],
    [at(10), at(30)],
  ])
})

test('Alertmanager: a forged or missing secret is refused and changes nothing; an unknown environment is ignored, said and counted', async () => {
  const { key } = await workspace('am-refusals')
  const integration = await createIntegration(h, key, { source: 'alertmanager', name: 'am' })
  const body = notification([{ fingerprint: 'a1', startsAt: at(10) }])
  expect((await deliverAlertmanager(h, integration, body, { secret: 'forged' })).status).toBe(401)
  expect(
    (await deliverAlertmanager(h, integration, body, { secret: 'forged', basic: true })).status,
  ).toBe(401)
  const unsigned = await h.send('POST', new URL(integration.url).pathname, {
    key: null,
    headers: { 'content-type': 'application/json' },
    rawBody: body,
  })
  expect(unsigned.status).toBe(401)
  const malformed = await deliverAlertmanager(h, integration, '{"receiver": "shiplog"}')
  expect(malformed.status).toBe(400)

  const elsewhere = notification([{ fingerprint: 'b1', startsAt: at(10) }], {
    labels: { alertname: 'DiskFull', environment: 'moon-base', app: 'checkout' },
  })
  expect((await deliverAlertmanager(h, integration, elsewhere)).status).toBe(202)
  await h.settle()
  expect(await incidentsOf(key)).toEqual([])
  const [ignored] = await deliveriesOf(h, key, integration)
  expect(ignored).toMatchObject({
    outcome: 'ignored',
    reason: expect.stringContaining("the environment 'moon-base' has no recorded deployment"),
  })
  const metrics = (await h.worker.scrape()).body
  expect(
    sampleOf(metrics, 'shiplog_integration_deliveries_handled_total', {
      source: 'alertmanager',
      state: 'ignored',
    }),
  ).toBeGreaterThanOrEqual(1)
})

/** A PagerDuty v3 incident event as PagerDuty's webhooks send it. */
function pagerDutyEvent(type: string, occurredMinutes: number, id = 'Q0RIJJZL24RC6W') {
  return JSON.stringify({
    event: {
      id: `01${type.length}${occurredMinutes}EVENT`,
      event_type: type,
      resource_type: 'incident',
      occurred_at: at(occurredMinutes),
      agent: null,
      client: null,
      data: {
        id,
        type: 'incident',
        self: `https://api.pagerduty.com/incidents/${id}`,
        html_url: `https://acme.pagerduty.com/incidents/${id}`,
        number: 2,
        status: type === 'incident.resolved' ? 'resolved' : 'triggered',
        incident_key: 'checkout-5xx',
        created_at: at(20),
        title: 'Checkout answers 5xx',
        service: {
          html_url: 'https://acme.pagerduty.com/services/PF9KMXH',
          id: 'PF9KMXH',
          self: 'https://api.pagerduty.com/services/PF9KMXH',
          summary: 'checkout',
          type: 'service_reference',
        },
      },
    },
  })
}

test('PagerDuty: triggered, acknowledged, resolved, reopened, in any order, end as in order; a forgery and a retry change nothing', async () => {
  const { key, ids } = await workspace('pd')
  const integration = await createIntegration(h, key, {
    source: 'pagerduty',
    name: 'pd',
    mapping: { environment: 'production' },
    secret: PAGERDUTY_SECRET,
  })
  expect(integration.secret).toBe(PAGERDUTY_SECRET)
  const send = async (body: string, options = {}) =>
    (await deliverPagerDuty(h, integration, body, options)).status
  // Resolved first, then its trigger, then an acknowledgement: resolved at minute 50.
  expect(await send(pagerDutyEvent('incident.resolved', 50))).toBe(202)
  expect(await send(pagerDutyEvent('incident.triggered', 20), { webhookId: 'retry-me' })).toBe(202)
  expect(await send(pagerDutyEvent('incident.acknowledged', 25))).toBe(202)
  // PagerDuty retrying a delivery keeps its X-Webhook-Id: a duplicate.
  expect(await send(pagerDutyEvent('incident.triggered', 20), { webhookId: 'retry-me' })).toBe(200)
  const forged = pagerDutyEvent('incident.reopened', 70)
  expect(await send(forged, { signature: `v1=${'0'.repeat(64)}` })).toBe(401)
  await h.settle()
  let [incident] = await incidentsOf(key)
  expect(incident).toMatchObject({
    status: 'resolved',
    startedAt: at(20),
    resolvedAt: at(50),
    causeDeploymentId: ids['v2 production'],
    source: 'pagerduty',
    senderUrl: 'https://acme.pagerduty.com/incidents/Q0RIJJZL24RC6W',
  })
  // Reopened later (signed twice, as during PagerDuty's rotation: any v1 match passes).
  const reopened = pagerDutyEvent('incident.reopened', 70)
  const signatures = `v1=${'f'.repeat(64)},${pagerDutySignature(PAGERDUTY_SECRET, reopened)}`
  expect(await send(reopened, { signature: signatures })).toBe(202)
  await h.settle()
  ;[incident] = await incidentsOf(key)
  expect(incident).toMatchObject({ status: 'open', resolvedAt: null })
  const acknowledged = (await deliveriesOf(h, key, integration)).find(
    (delivery) => delivery.event === 'incident.acknowledged',
  )
  expect(acknowledged).toMatchObject({
    outcome: 'ignored',
    reason: expect.stringContaining('changes no incident'),
  })
})

test('PagerDuty: the integration takes PagerDuty’s secret, and needs it', async () => {
  const key = await adminKey(h)
  const missing = await h.send('POST', '/v1/integrations', {
    key,
    body: { source: 'pagerduty', name: 'no secret' },
  })
  expect(missing.status).toBe(422)
  const misplaced = await h.send('POST', '/v1/integrations', {
    key,
    body: { source: 'alertmanager', name: 'given', secret: PAGERDUTY_SECRET },
  })
  expect(misplaced.status).toBe(422)
})

test('Opsgenie: Create opens, Close resolves, Acknowledge changes nothing', async () => {
  const { key } = await workspace('opsgenie')
  const integration = await createIntegration(h, key, { source: 'opsgenie', name: 'og' })
  const alert = (action: string, updatedMinutes: number) =>
    JSON.stringify({
      action,
      alert: {
        alertId: '8b6e6a43-1b2e-4b8e-9f5e-6c1a1f3c2d4e-1617978767735',
        message: 'Checkout answers 5xx',
        tags: ['checkout'],
        tinyId: '42',
        entity: 'checkout',
        alias: 'checkout-5xx',
        createdAt: Date.parse(at(5)),
        updatedAt: Date.parse(at(updatedMinutes)) * 1e6,
        username: 'System',
        userId: '',
        details: { environment: 'production' },
      },
      source: { name: '', type: 'api' },
      integrationName: 'Shiplog',
      integrationId: 'aa1e3f6c-2a1b-4f6e-8a53-6f6fb2e1b8c1',
      integrationType: 'Webhook',
    })
  for (const [action, minutes] of [
    ['Create', 5],
    ['Acknowledge', 8],
    ['Close', 30],
  ] as const) {
    expect((await deliverOpsgenie(h, integration, alert(action, minutes))).status).toBe(202)
  }
  await h.settle()
  expect(await incidentsOf(key)).toEqual([
    expect.objectContaining({
      status: 'resolved',
      app: 'checkout',
      startedAt: at(5),
      resolvedAt: at(30),
      source: 'opsgenie',
    }),
  ])
})

test('a person’s correction stays: a later delivery of the incident sets what it owns, not what was corrected', async () => {
  const { key } = await workspace('corrected')
  const integration = await createIntegration(h, key, { source: 'alertmanager', name: 'am' })
  await deliverAlertmanager(h, integration, notification([{ fingerprint: 'a1', startsAt: at(10) }]))
  await h.settle()
  const [incident] = await incidentsOf(key)
  const patched = await h.send('PATCH', `/v1/incidents/${incident?.id}`, {
    key,
    body: { title: 'Checkout outage (payments provider)', startedAt: at(8) },
  })
  expect(patched.status).toBe(200)
  await deliverAlertmanager(
    h,
    integration,
    notification([{ fingerprint: 'a1', startsAt: at(10), endsAt: at(50) }]),
  )
  await h.settle()
  expect(await incidentsOf(key)).toEqual([
    expect.objectContaining({
      id: incident?.id,
      title: 'Checkout outage (payments provider)',
      startedAt: at(8),
      // The resolution is the sender's: it was never corrected.
      resolvedAt: at(50),
    }),
  ])
})

test('CDEvents: incident.detected opens and incident.resolved resolves, through the cdevents integration', async () => {
  const { key } = await workspace('cdevents-incidents')
  const integration = await createIntegration(h, key, { source: 'cdevents', name: 'cd' })
  const cdevent = (predicate: string, minutes: number) =>
    JSON.stringify({
      context: {
        version: '0.4.1',
        id: `${predicate}-1`,
        source: '/monitoring/prod',
        type: `dev.cdevents.incident.${predicate}.0.2.0`,
        timestamp: at(minutes),
      },
      subject: {
        id: 'incident-123',
        source: '/monitoring/prod',
        type: 'incident',
        content: {
          description: 'Response time above 100ms',
          environment: { id: 'production', source: '/clusters/a' },
          service: { id: 'checkout', source: '/clusters/a/shop' },
        },
      },
    })
  for (const [predicate, minutes] of [
    ['resolved', 40],
    ['detected', 15],
  ] as const) {
    const response = await h.send('POST', new URL(integration.url).pathname, {
      key: null,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${integration.secret}`,
      },
      rawBody: cdevent(predicate, minutes),
    })
    expect(response.status).toBe(202)
  }
  await h.settle()
  expect(await incidentsOf(key)).toEqual([
    expect.objectContaining({
      startedAt: at(15),
      resolvedAt: at(40),
      app: 'checkout',
      source: 'cdevents',
      title: 'Response time above 100ms',
    }),
  ])
})

const FIXTURES = new URL('../../../../packages/integrations/fixtures/', import.meta.url)
const fixture = (path: string) => readFileSync(new URL(path, FIXTURES), 'utf8')

test('real bodies through the receivers: PagerDuty’s published signed example, and each tool’s captured events', async () => {
  const { key } = await workspace('captured')
  const example = JSON.parse(fixture('pagerduty/signature-example.json'))
  const placed = { environment: 'production', app: 'checkout' }
  const pagerduty = await createIntegration(h, key, {
    source: 'pagerduty',
    name: 'pd',
    mapping: placed,
    secret: example.secret,
  })
  expect(
    (await deliverPagerDuty(h, pagerduty, example.body, { signature: example.signatures })).status,
  ).toBe(202)
  const alertmanager = await createIntegration(h, key, {
    source: 'alertmanager',
    name: 'am',
    mapping: placed,
  })
  const firing = fixture('alertmanager/cloudeon-firing-three-alerts.json')
  expect((await deliverAlertmanager(h, alertmanager, firing)).status).toBe(202)
  const opsgenie = await createIntegration(h, key, {
    source: 'opsgenie',
    name: 'og',
    mapping: placed,
  })
  for (const name of ['zulip-create.json', 'zulip-acknowledge.json', 'zulip-close.json']) {
    expect((await deliverOpsgenie(h, opsgenie, fixture(`opsgenie/${name}`))).status).toBe(202)
  }
  await h.settle()
  expect((await deliveriesOf(h, key, pagerduty))[0]).toMatchObject({
    event: 'incident.priority_updated',
    outcome: 'ignored',
    reason: expect.stringContaining('changes no incident'),
  })
  const incidents = await incidentsOf(key)
  // Zulip's captured Create is of another alert than its Acknowledge and Close: two incidents,
  // the closed one known from its Close alone.
  expect(incidents.map(({ source, status }) => [source, status]).sort()).toEqual([
    ['alertmanager', 'open'],
    ['opsgenie', 'open'],
    ['opsgenie', 'resolved'],
  ])
  const fromAlertmanager = incidents.find(({ source }) => source === 'alertmanager')
  const earliest = JSON.parse(firing)
    .alerts.map((alert: { startsAt: string }) => Date.parse(alert.startsAt))
    .sort()[0]
  expect(Date.parse(fromAlertmanager?.startedAt ?? '')).toBe(earliest)
})
