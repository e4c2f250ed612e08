import { expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { harnessPerFile } from '../support/harness.ts'
import {
  adminKey,
  createIntegration,
  deliverFlux,
  deliveriesOf,
  deliverWithBearer,
} from '../support/integrations.ts'

// CDEvents and Flux senders through the receiver and the worker: the CDEvents spec's own
// examples and Flux events (packages/integrations/fixtures: SOURCE.md names each one's source),
// posted as read, in every mode their senders use.

const h = harnessPerFile()
const FIXTURES = new URL('../../../../packages/integrations/fixtures/', import.meta.url)
const fixture = (path: string) => readFile(new URL(path, FIXTURES), 'utf8')
const COMMIT = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'

const receiptOf = async (path: string) =>
  (await (await h.get(path)).json()) as Record<string, unknown>

test('CDEvents: the spec’s service.deployed, bare, structured and binary, each recorded once with source cdevents', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, {
    source: 'cdevents',
    name: 'cdviz',
    mapping: { repository: 'acme/shop', commit: COMMIT },
  })
  const example = await fixture('cdevents/v0.5.1/examples/service_deployed.json')
  const cdevent = JSON.parse(example)
  const envelope = (id: string) =>
    `{"specversion":"1.0","id":"${id}","source":"/event/source/123","type":"${cdevent.context.type}","time":"${cdevent.context.timestamp}","datacontenttype":"application/json","data":${example}}`
  const binaryHeaders = (id: string) => ({
    'ce-specversion': '1.0',
    'ce-id': id,
    'ce-source': '/event/source/123',
    'ce-type': cdevent.context.type,
  })
  // Bare, structured, binary: each mode's statuses, in that order.
  const sendEachMode = async () => [
    (await deliverWithBearer(h, integration, example, {})).status,
    (
      await deliverWithBearer(h, integration, envelope('structured-1'), {
        'content-type': 'application/cloudevents+json; charset=utf-8',
      })
    ).status,
    (
      await deliverWithBearer(
        h,
        integration,
        example.replace(cdevent.context.id, 'binary-1'),
        binaryHeaders('binary-1'),
      )
    ).status,
  ]
  expect(await sendEachMode()).toEqual([202, 202, 202])
  // Sent again, each is recognised by its id within its source.
  expect(await sendEachMode()).toEqual([200, 200, 200])
  await h.settle()
  const deliveries = await deliveriesOf(h, key, integration)
  expect(deliveries.map((each) => each.outcome).sort()).toEqual([
    'duplicate',
    'duplicate',
    'duplicate',
    'recorded',
    'recorded',
    'recorded',
  ])
  expect(deliveries.every((each) => each.event === 'dev.cdevents.service.deployed.0.3.0')).toBe(
    true,
  )
  const recorded = deliveries.find((each) => each.outcome === 'recorded')
  expect(await receiptOf(recorded?.deployment as string)).toMatchObject({
    status: 'recorded',
    source: 'cdevents',
    repositoryFullName: 'acme/shop',
    environment: 'test123',
    app: 'myapp',
    version: 'sha256:0b31b1c02ff4',
    commitHash: COMMIT,
    deployedAt: '2023-03-20T14:27:05.315384Z',
  })
})

test('CDEvents: the spec’s v0.3.0, v0.4.1 and v0.5.1 examples name no commit: recorded with it unknown, their versions deciding the change types', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, {
    source: 'cdevents',
    name: 'no-commit',
    // Its own environment: the first test recorded the same example in test123.
    mapping: { repository: 'acme/shop', environment: 'preview' },
  })
  // The examples as the spec writes them (one id and one instant in all three): moved apart in
  // time and id, so they are three deployments: the digest, another digest, the first again.
  const DIGEST = '0b31b1c02ff458ad9b7b81cbdf8f028bd54699fa151f221d1e8de6817db93427'
  const OTHER = 'f'.repeat(64)
  const moved = async (path: string, id: string, hour: number, digest: string) =>
    (await fixture(path))
      .replace('271069a8-fc18-44f1-b38f-9d70a1695819', id)
      .replace('2023-03-20T14:27:05.315384Z', `2023-03-20T1${hour}:27:05.315384Z`)
      .replace(DIGEST, digest)
  const deployed = await moved('cdevents/v0.3.0/examples/service_deployed.json', 'd-1', 4, DIGEST)
  const upgraded = await moved('cdevents/v0.4.1/examples/service_upgraded.json', 'u-1', 5, OTHER)
  const rolledBack = await moved(
    'cdevents/v0.5.1/examples/service_rolledback.json',
    'r-1',
    6,
    DIGEST,
  )
  const structured = (cdevent: string) =>
    `{"specversion":"1.0","id":"s-${JSON.parse(cdevent).context.id}","source":"/event/source/123","type":"${JSON.parse(cdevent).context.type}","datacontenttype":"application/json","data":${cdevent}}`
  expect(
    (
      await deliverWithBearer(h, integration, structured(deployed), {
        'content-type': 'application/cloudevents+json',
      })
    ).status,
  ).toBe(202)
  expect(
    (
      await deliverWithBearer(h, integration, upgraded, {
        'ce-specversion': '1.0',
        'ce-id': 'u-1',
        'ce-source': '/event/source/123',
        'ce-type': JSON.parse(upgraded).context.type,
      })
    ).status,
  ).toBe(202)
  expect((await deliverWithBearer(h, integration, rolledBack, {})).status).toBe(202)
  await h.settle()
  const deliveries = (await deliveriesOf(h, key, integration)).reverse()
  expect(deliveries.map((each) => [each.outcome, each.reason])).toEqual(
    Array(3).fill([
      'recorded',
      expect.stringContaining(
        'recorded with its commit unknown: the CDEvent has no customData.commit',
      ),
    ]),
  )
  const receipts = []
  for (const each of deliveries) receipts.push(await receiptOf(each.deployment as string))
  receipts.sort((a, b) => String(a.deployedAt).localeCompare(String(b.deployedAt)))
  expect(
    receipts.map(({ version, commitHash, changeType }) => ({ version, commitHash, changeType })),
  ).toEqual([
    { version: 'sha256:0b31b1c02ff4', commitHash: null, changeType: 'initial' },
    { version: 'sha256:ffffffffffff', commitHash: null, changeType: 'forward' },
    // The first digest again: a rollback by its version, though no commit is known.
    { version: 'sha256:0b31b1c02ff4', commitHash: null, changeType: 'rollback' },
  ])
  expect(receipts[0]?.commitsUnknown).toBe(
    'the deployment’s own commit is unknown: its sender named none',
  )
  const dora = await (
    await h.get('/v1/metrics/dora?environment=preview&since=2023-03-20&until=2023-03-21')
  ).json()
  expect(dora.deploymentFrequency.deployments).toBe(3)
  // The forward one failed (rolled back); changes are the initial and forward ones (docs/dora.md).
  expect(dora.changeFailRate).toMatchObject({ failed: 1, deployments: 2 })
  expect(dora.changeLeadTime.commits).toBe(0)
  // The CSV leaves the commit empty, as it does every null.
  const csv = await (
    await h.get('/v1/deployments?environment=preview', { headers: { accept: 'text/csv' } })
  ).text()
  expect(csv.split('\r\n')[1]?.split(',')[7]).toBe('')
})

test('CDEvents: a bad or missing bearer, or a malformed CloudEvent, gets its problem and records nothing', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, {
    source: 'cdevents',
    name: 'refusals',
    mapping: { repository: 'acme/shop', commit: COMMIT },
  })
  const example = await fixture('cdevents/v0.4.1/examples/service_upgraded.json')
  const wrong = await deliverWithBearer(h, integration, example, {}, 'shiplog_whsec_wrong')
  expect(wrong.status).toBe(401)
  expect((await wrong.json()).detail).toContain('Authorization is missing or is not Bearer')
  expect((await deliverWithBearer(h, integration, example, {}, null)).status).toBe(401)
  const malformed = await deliverWithBearer(
    h,
    integration,
    '{"specversion":"1.0","id":"x","source":"/s","type":"dev.cdevents.service.deployed.0.3.0","data_base64":"e30="}',
    { 'content-type': 'application/cloudevents+json' },
  )
  expect(malformed.status).toBe(400)
  expect((await malformed.json()).type).toBe('/problems/not-an-event')
  const notJson = await deliverWithBearer(h, integration, '{"context":', {})
  expect(notJson.status).toBe(400)
  await h.settle()
  const deliveries = await deliveriesOf(h, key, integration)
  expect(deliveries.map((each) => each.outcome)).toEqual([
    'refused',
    'refused',
    'refused',
    'refused',
  ])
  expect(deliveries.map((each) => each.deployment)).toEqual([null, null, null, null])
})

test('Flux: a signed Kustomization ReconciliationSucceeded records its commit; the same revision again is a duplicate', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, {
    source: 'flux',
    name: 'cluster-eu',
    mapping: { repository: 'acme/platform', environment: 'production' },
  })
  const event = await fixture('flux/events/derived/kustomization-reconciliationsucceeded.json')
  expect((await deliverFlux(h, integration, event)).status).toBe(202)
  // Reconciled again later, same revision: a new timestamp, the same release.
  const later = event.replace('2023-08-16T10:26:43Z', '2023-08-16T10:36:43Z')
  expect((await deliverFlux(h, integration, later)).status).toBe(200)
  // A generic Provider sends the secret as a bearer instead.
  const progressing = await fixture('flux/events/derived/kustomization-progressing-changeset.json')
  expect(
    (await deliverFlux(h, integration, progressing, { bearer: integration.secret })).status,
  ).toBe(202)
  const forged = await deliverFlux(h, integration, event, { secret: 'not the secret' })
  expect(forged.status).toBe(401)
  await h.settle()
  const deliveries = await deliveriesOf(h, key, integration)
  expect(deliveries.map((each) => [each.event, each.outcome])).toEqual([
    // Refused before its body is read: its event is not known.
    ['unknown', 'refused'],
    ['Kustomization Progressing', 'ignored'],
    ['Kustomization ReconciliationSucceeded', 'duplicate'],
    ['Kustomization ReconciliationSucceeded', 'recorded'],
  ])
  expect(await receiptOf(deliveries[3]?.deployment as string)).toMatchObject({
    source: 'flux',
    repositoryFullName: 'acme/platform',
    environment: 'production',
    app: 'flux-system',
    version: '802723078aff',
    commitHash: '802723078affd3eb2a3898630261ab3ca5d6dd40',
  })
})
