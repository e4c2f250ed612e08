import { expect, test } from 'bun:test'
import type { Incident } from '@shiplog/schema'
import { validDeployment } from '@shiplog/schema/testing'
import fc from 'fast-check'
import { harnessPerFile } from '../support/harness.ts'
import { deliverAlertmanager, deliverPagerDuty } from '../support/incident-senders.ts'
import { createIntegration } from '../support/integrations.ts'

// Deliveries are facts, in any order and any number (decisions §9): whichever of an alert
// group's notifications and an incident's PagerDuty events arrive, in whatever order, the
// incidents and the DORA figures are those of the same deliveries in order.

const h = harnessPerFile()
const at = (minutes: number) =>
  new Date(Date.UTC(2026, 9, 1, 12, 0) + minutes * 60_000).toISOString()

/** An alert of the group: it fires from `from` and resolves at `to` (minutes), or never. */
interface AlertSpan {
  fingerprint: string
  from: number
  to: number | null
}

/** What Alertmanager sends at minute `now`: every alert begun by then, firing or resolved. */
function snapshot(alerts: AlertSpan[], now: number): string | undefined {
  const begun = alerts.filter((alert) => alert.from <= now)
  if (begun.length === 0) return undefined
  const resolved = (alert: AlertSpan) => alert.to !== null && alert.to <= now
  const labels = { alertname: 'HighLatency', environment: 'production', app: 'checkout' }
  return JSON.stringify({
    receiver: 'shiplog',
    status: begun.every(resolved) ? 'resolved' : 'firing',
    alerts: begun.map((alert) => ({
      status: resolved(alert) ? 'resolved' : 'firing',
      labels: { ...labels, pod: alert.fingerprint },
      annotations: {},
      startsAt: at(alert.from),
      endsAt: resolved(alert) ? at(alert.to as number) : '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.example/graph',
      fingerprint: alert.fingerprint,
    })),
    groupLabels: { alertname: 'HighLatency' },
    commonLabels: labels,
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example',
    version: '4',
    groupKey: '{}:{alertname="HighLatency"}',
    truncatedAlerts: 0,
  })
}

function pagerDutyEvent(type: string, minutes: number): string {
  return JSON.stringify({
    event: {
      id: `${type}-${minutes}`,
      event_type: type,
      resource_type: 'incident',
      occurred_at: at(minutes),
      data: {
        id: 'PD1',
        type: 'incident',
        html_url: 'https://acme.pagerduty.com/incidents/PD1',
        created_at: at(5),
        title: 'Checkout is slow',
        service: { id: 'S1', summary: 'checkout', type: 'service_reference' },
      },
    },
  })
}

const alertSpans = fc
  .array(
    fc.record({
      from: fc.integer({ min: 1, max: 120 }),
      length: fc.option(fc.integer({ min: 1, max: 60 }), { freq: 4 }),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((spans) =>
    spans.map(({ from, length }, index) => ({
      fingerprint: `f${index}`,
      from,
      to: length === null ? null : from + length,
    })),
  )

const pagerDutyEvents = fc.array(
  fc.tuple(
    fc.constantFrom(
      'incident.triggered',
      'incident.resolved',
      'incident.reopened',
      'incident.acknowledged',
    ),
    fc.integer({ min: 5, max: 200 }),
  ),
  { minLength: 2, maxLength: 5 },
)

/** A delivery, to the workspace's Alertmanager or PagerDuty integration. */
type Sent = { to: 'alertmanager' | 'pagerduty'; body: string }

let runs = 0

/** A workspace with checkout v1 and v2 in production and both integrations; sends `deliveries`. */
async function replay(deliveries: Sent[]) {
  const workspace = `arrival-${runs++}`
  const { key } = await h.createKey({
    workspace,
    scopes: ['deployments:write', 'read', 'admin'],
  })
  for (const [version, commit, minutes] of [
    ['v1', 'a', -600],
    ['v2', 'b', 0],
    ['v3', 'c', 100],
  ] as const) {
    const body = validDeployment({
      version,
      commitHash: commit.repeat(40),
      deployedAt: at(minutes),
    })
    expect((await h.post(body, { key })).status).toBe(202)
  }
  await h.drain()
  const integrations = {
    alertmanager: await createIntegration(h, key, { source: 'alertmanager', name: 'am' }),
    pagerduty: await createIntegration(h, key, {
      source: 'pagerduty',
      name: 'pd',
      mapping: { environment: 'production' },
      secret: 'arrival-pagerduty-secret',
    }),
  }
  for (const { to, body } of deliveries) {
    const response =
      to === 'alertmanager'
        ? await deliverAlertmanager(h, integrations.alertmanager, body)
        : await deliverPagerDuty(h, integrations.pagerduty, body)
    expect(response.status).toBeLessThan(300)
  }
  await h.settle()
  const incidents = (await (await h.get('/v1/incidents?limit=100', { key })).json()) as {
    data: Incident[]
  }
  const dora = await (
    await h.get(`/v1/metrics/dora?environment=production&since=${at(-1440)}&until=${at(1440)}`, {
      key,
    })
  ).json()
  return {
    // The incidents as a reader sees them, but for their ids and when they were written.
    incidents: incidents.data
      .map(({ id: _, createdAt: __, updatedAt: ___, causeDeploymentId, ...rest }) => ({
        ...rest,
        cause: causeDeploymentId === null ? null : 'a deployment',
      }))
      .sort((a, b) => `${a.source}${a.startedAt}`.localeCompare(`${b.source}${b.startedAt}`)),
    dora,
  }
}

test('property: any subset of a group’s notifications and an incident’s events, in any order, ends as in order', async () => {
  await fc.assert(
    fc.asyncProperty(
      alertSpans,
      fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 3, maxLength: 8 }),
      pagerDutyEvents,
      fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })),
      async (spans, times, events, order) => {
        const all: Sent[] = [
          ...[...new Set(times)]
            .sort((a, b) => a - b)
            .map((now) => snapshot(spans, now))
            .filter((body): body is string => body !== undefined)
            .map((body) => ({ to: 'alertmanager' as const, body })),
          ...events
            .sort(([, a], [, b]) => a - b)
            .map(([type, minutes]) => ({
              to: 'pagerduty' as const,
              body: pagerDutyEvent(type, minutes),
            })),
        ]
        // A subset, in order, and the same subset shuffled.
        const weights = all.map(() => order.next().value as number)
        const subset = all.filter((_, index) => (weights[index] as number) > 0.25)
        fc.pre(subset.length >= 2)
        const shuffled = subset
          .map((sent, index) => ({ sent, key: order.next().value as number, index }))
          .sort((a, b) => a.key - b.key)
          .map(({ sent }) => sent)
        const inOrder = await replay(subset)
        // Backwards, the hardest order for a rule that lets the last arrival win, and shuffled.
        for (const other of [[...subset].reverse(), shuffled]) {
          const replayed = await replay(other)
          expect(replayed.incidents).toEqual(inOrder.incidents)
          expect(replayed.dora).toEqual(inOrder.dora)
        }
      },
    ),
    { numRuns: 15 },
  )
}, 120_000)
