import { expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { validDeployment } from '@shiplog/schema/testing'
import { parse } from 'yaml'
import { harnessPerFile } from '../support/harness.ts'
import { adminKey, createIntegration, deliverWithBearer } from '../support/integrations.ts'
import { sampleOf } from '../support/prometheus.ts'

// What an operator's alert reads to see the worker fall behind: how long the oldest deployment
// and the oldest integration delivery have waited, and how many deliveries wait; back to 0 once
// the worker has caught up.

// DORA gauges on: an alert reads when they were last computed.
const h = harnessPerFile({}, { DORA_METRICS_ENABLED: 'true' })
const scraped = async () => (await h.worker.scrape()).body

test('the oldest waiting deployment and delivery age while nothing records them, and read 0 after', async () => {
  const idle = await scraped()
  expect(sampleOf(idle, 'shiplog_oldest_waiting_deployment_seconds')).toBe(0)
  expect(sampleOf(idle, 'shiplog_integration_deliveries_waiting')).toBe(0)

  expect((await h.post(validDeployment({ version: 'waits' }))).status).toBe(202)
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, { source: 'cdevents', name: 'waits' })
  const cdevent = JSON.stringify({
    context: {
      id: 'w-1',
      source: '/s',
      type: 'dev.cdevents.service.deployed.0.3.0',
      timestamp: '2026-11-01T00:00:00Z',
    },
    subject: { id: 'shop', content: { environment: { id: 'production' } } },
  })
  expect((await deliverWithBearer(h, integration, cdevent, {})).status).toBe(202)
  await Bun.sleep(1_100)
  const behind = await scraped()
  expect(sampleOf(behind, 'shiplog_oldest_waiting_deployment_seconds')).toBeGreaterThanOrEqual(1)
  expect(sampleOf(behind, 'shiplog_integration_deliveries_waiting')).toBe(1)
  expect(sampleOf(behind, 'shiplog_oldest_waiting_delivery_seconds')).toBeGreaterThanOrEqual(1)

  await h.settle()
  const caughtUp = await scraped()
  expect(sampleOf(caughtUp, 'shiplog_oldest_waiting_deployment_seconds')).toBe(0)
  expect(sampleOf(caughtUp, 'shiplog_integration_deliveries_waiting')).toBe(0)
  expect(sampleOf(caughtUp, 'shiplog_oldest_waiting_delivery_seconds')).toBe(0)
})

test('every metric an alert reads exists on the running API’s or worker’s /metrics', async () => {
  const rules = parse(
    await readFile(
      new URL('../../../../infra/helm/shiplog/files/shiplog-alerts.yaml', import.meta.url),
      'utf8',
    ),
  ) as { groups: { rules: { alert: string; expr: string }[] }[] }
  const exposed = `${(await h.api.scrape()).body}\n${(await h.worker.scrape()).body}`
  const declared = new Set([...exposed.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]))
  for (const rule of rules.groups.flatMap((group) => group.rules)) {
    for (const [name] of rule.expr.matchAll(/shiplog_[a-z_]+/g)) {
      // A histogram's series are its name with _bucket, _sum and _count.
      const family = name.replace(/_(bucket|sum|count)$/, '')
      expect({ alert: rule.alert, metric: name, exposed: declared.has(family) }).toEqual({
        alert: rule.alert,
        metric: name,
        exposed: true,
      })
    }
  }
})
