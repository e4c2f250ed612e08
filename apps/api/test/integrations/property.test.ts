import { beforeAll, expect, test } from 'bun:test'
import { readdir, readFile } from 'node:fs/promises'
import examples from '@octokit/webhooks-examples'
import { sign } from '@octokit/webhooks-methods'
import { INTEGRATION_SOURCES, type IntegrationWithSecret } from '@shiplog/schema/integration'
import fc from 'fast-check'
import { lookalikeName } from '../support/edge-inputs.ts'
import { harnessPerFile } from '../support/harness.ts'
import { pagerDutySignature } from '../support/incident-senders.ts'
import { createIntegration, hookPathOf } from '../support/integrations.ts'
import { sendEach } from '../support/sendable.ts'

// Whatever a sender (or someone who found a hook's URL) posts, and whatever an admin sends the
// integrations' endpoints: a 2xx or a 4xx problem, never a 5xx, and every stored delivery handled.

const h = harnessPerFile()
let admin: string
let github: IntegrationWithSecret
let gitlab: IntegrationWithSecret
let cdevents: IntegrationWithSecret
let flux: IntegrationWithSecret
let alertmanager: IntegrationWithSecret
let pagerduty: IntegrationWithSecret
let opsgenie: IntegrationWithSecret

beforeAll(async () => {
  admin = (
    await h.createKey({ workspace: 'fuzz', scopes: ['admin'], rateLimitPerMinute: 1_000_000 })
  ).key
  github = await createIntegration(h, admin, { source: 'github', name: 'fuzzed github' })
  gitlab = await createIntegration(h, admin, {
    source: 'gitlab',
    name: 'fuzzed gitlab',
    mapping: { app: [{ from: 'headers.x-app' }, { from: 'project.name' }] },
  })
  cdevents = await createIntegration(h, admin, {
    source: 'cdevents',
    name: 'fuzzed cdevents',
    mapping: { repository: 'acme/shop', commit: [{ from: 'customData.commit' }, 'a'.repeat(40)] },
  })
  flux = await createIntegration(h, admin, {
    source: 'flux',
    name: 'fuzzed flux',
    mapping: { repository: 'acme/platform' },
  })
  alertmanager = await createIntegration(h, admin, { source: 'alertmanager', name: 'fuzzed am' })
  pagerduty = await createIntegration(h, admin, {
    source: 'pagerduty',
    name: 'fuzzed pd',
    mapping: { environment: [{ from: 'event.data.service.summary' }, 'production'] },
    secret: 'fuzzed-pagerduty-secret',
  })
  opsgenie = await createIntegration(h, admin, { source: 'opsgenie', name: 'fuzzed og' })
})

const GITOPS_FIXTURES = new URL('../../../../packages/integrations/fixtures/', import.meta.url)
const jsonFilesIn = async (folder: URL): Promise<Record<string, unknown>[]> =>
  Promise.all(
    (await readdir(folder, { recursive: true }))
      .filter(
        (name) =>
          name.endsWith('.json') && !name.includes('schemas') && !name.includes('signature'),
      )
      .map(async (name) => JSON.parse(await readFile(new URL(name, folder), 'utf8'))),
  )

const realBodies = [
  ...(examples as { name: string; examples: unknown[] }[])
    .filter((each) => ['deployment_status', 'deployment', 'push', 'ping'].includes(each.name))
    .flatMap((each) => each.examples),
  ...(await Promise.all(
    ['gitlab-deployment-hook.json', 'gitlab-push-hook.json', 'gitlab-tag-push-hook.json'].map(
      async (name) =>
        JSON.parse(await readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8')),
    ),
  )),
  ...(await jsonFilesIn(new URL('cdevents/', GITOPS_FIXTURES))),
  ...(await jsonFilesIn(new URL('flux/events/', GITOPS_FIXTURES))),
  ...(await jsonFilesIn(new URL('alertmanager/', GITOPS_FIXTURES))),
  ...(await jsonFilesIn(new URL('pagerduty/', GITOPS_FIXTURES))),
  ...(await jsonFilesIn(new URL('opsgenie/', GITOPS_FIXTURES))),
] as Record<string, unknown>[]

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('success', 'failure', 'refs/heads/master', 'refs/tags/v1', '0'.repeat(40), ''),
  fc.constantFrom('2021-04-28 21:50:00 +0200', '2021-04-28T21:50:00Z', 'yesterday'),
  lookalikeName,
)
const anyValue = fc.oneof(text, fc.constant(null), fc.integer(), fc.boolean(), fc.jsonValue())

/** A real body with some of its fields, at any depth of one level, replaced. */
const mutated = fc
  .tuple(
    fc.constantFrom(...realBodies),
    fc.dictionary(
      fc.constantFrom(
        'ref',
        'before',
        'after',
        'forced',
        'commits',
        'status',
        'short_sha',
        'commit_url',
        'status_changed_at',
        'deployment',
        'deployment_status',
        'repository',
        'project',
        'total_commits_count',
        'context',
        'subject',
        'customData',
        'specversion',
        'data',
        'involvedObject',
        'reason',
        'metadata',
      ),
      anyValue,
      { maxKeys: 3 },
    ),
  )
  .map(([body, overrides]) => JSON.stringify({ ...body, ...overrides }))

const payload = fc.oneof(
  { weight: 4, arbitrary: mutated },
  { weight: 2, arbitrary: fc.constantFrom(...realBodies).map((body) => JSON.stringify(body)) },
  { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
)

const delivery = fc.record({
  to: fc.constantFrom(
    'github',
    'gitlab',
    'cdevents',
    'flux',
    'alertmanager',
    'pagerduty',
    'opsgenie',
    'nowhere',
  ),
  payload,
  event: fc.oneof(
    fc.constantFrom('deployment_status', 'push', 'ping', 'deployment', 'Deployment Hook'),
    fc.constantFrom('Push Hook', 'Tag Push Hook', 'issues', 'dev.cdevents.service.deployed.0.3.0'),
    fc.string({ unit: 'binary-ascii', maxLength: 20 }),
  ),
  proof: fc.constantFrom('valid', 'valid', 'valid', 'wrong', 'none'),
  senderId: fc.option(fc.constantFrom('a', 'b', 'c', 'd'), { freq: 3 }),
  // Senders send JSON; the other types probe the refusal, which the JSON check made common.
  contentType: fc.oneof(
    { weight: 6, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('application/x-www-form-urlencoded', '') },
    { weight: 1, arbitrary: fc.constant('application/cloudevents+json') },
  ),
  // CloudEvents' binary mode: the attributes as headers.
  binary: fc.boolean(),
})

test('no delivery a sender can post produces a 5xx, and every stored one is handled', async () => {
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(fc.array(delivery, { minLength: 1, maxLength: 12 }), async (batch) => {
      const answered = await sendEach(batch, async (each) => {
        const integration = {
          github,
          gitlab,
          cdevents,
          flux,
          alertmanager,
          pagerduty,
          opsgenie,
          nowhere: github,
        }[each.to]
        const headers: Record<string, string> = {}
        if (each.contentType) headers['content-type'] = each.contentType
        const secret = each.proof === 'valid' ? integration.secret : 'guess'
        if (each.to === 'cdevents') {
          if (each.proof !== 'none') headers.authorization = `Bearer ${secret}`
          if (each.binary) {
            headers['ce-specversion'] = '1.0'
            headers['ce-type'] = each.event
            if (each.senderId !== null) headers['ce-id'] = each.senderId
          }
        } else if (each.to === 'alertmanager' || each.to === 'opsgenie') {
          if (each.proof !== 'none') {
            headers.authorization = each.binary
              ? `Basic ${btoa(`alertmanager:${secret}`)}`
              : `Bearer ${secret}`
          }
        } else if (each.to === 'pagerduty') {
          if (each.proof !== 'none') {
            headers['x-pagerduty-signature'] = pagerDutySignature(secret, each.payload)
          }
          if (each.senderId !== null) headers['x-webhook-id'] = each.senderId
        } else if (each.to === 'flux') {
          if (each.proof !== 'none') {
            // GitHub's scheme under Flux's header.
            headers['x-signature'] = await sign(secret, each.payload)
          }
        } else if (each.to === 'gitlab') {
          headers['x-gitlab-event'] = each.event
          if (each.proof !== 'none')
            headers['x-gitlab-token'] = each.proof === 'valid' ? gitlab.secret : 'guess'
          if (each.senderId !== null) headers['idempotency-key'] = each.senderId
        } else {
          headers['x-github-event'] = each.event
          headers['x-github-delivery'] = each.senderId ?? crypto.randomUUID()
          if (each.proof !== 'none') {
            const secret = each.proof === 'valid' ? github.secret : 'guess'
            headers['x-hub-signature-256'] = await sign(secret, each.payload)
          }
        }
        const path =
          each.to === 'nowhere'
            ? '/hooks/0190f3c4-5b2e-7c1d-9e8f-a1b2c3d4e5f6'
            : hookPathOf(integration)
        return h.send('POST', path, { key: null, headers, rawBody: each.payload })
      })
      for (const response of answered) {
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        expect([200, 202, 400, 401, 404, 413]).toContain(response.status)
        if (response.status >= 400) {
          expect(response.headers.get('content-type')).toBe('application/problem+json')
        }
      }
    }),
    { numRuns: 150 },
  )
  await h.settle()
  // Guards the generator: enough deliveries must get through for the property to bite.
  expect(statuses.get(202) ?? 0).toBeGreaterThan(40)
  const [left] = await h.sql<{ waiting: number }[]>`
    select count(*)::int as waiting from integration_deliveries where state = 'received'`
  expect(left?.waiting).toBe(0)
  expect(h.logs.filter((line) => line.msg === 'delivery not handled')).toEqual([])
}, 120_000)

const mappingValue = fc.oneof(
  text,
  fc.record({ from: text }),
  fc.array(fc.oneof(text, fc.record({ from: text })), { maxLength: 12 }),
  anyValue,
)
const integrationBody = fc.oneof(
  fc.record(
    {
      source: fc.oneof(fc.constantFrom(...INTEGRATION_SOURCES), text),
      secret: fc.oneof(text, anyValue, fc.constant('a-pagerduty-made-secret-0123')),
      name: fc.oneof(text, lookalikeName, anyValue),
      mapping: fc.oneof(
        fc.dictionary(
          fc.oneof(fc.constantFrom('app', 'environment', 'repository', 'version', 'commit'), text),
          mappingValue,
          { maxKeys: 4 },
        ),
        anyValue,
      ),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
)

test('no body an admin sends the integrations’ endpoints produces a 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(
      integrationBody,
      integrationBody,
      fc.oneof(fc.constant(github.id), fc.uuid(), fc.string({ maxLength: 40 })),
      async (created, patch, id) => {
        const path = `/v1/integrations/${encodeURIComponent(id)}`
        const answers = await sendEach(
          [
            () => h.send('POST', '/v1/integrations', { key: admin, body: created }),
            () => h.send('PATCH', path, { key: admin, body: patch }),
            () => h.send('GET', `${path}/deliveries`, { key: admin }),
            () => h.send('GET', path, { key: admin }),
            () => h.send('POST', `/v1/integrations/${pagerduty.id}/secret`, { key: admin }),
          ],
          (send) => send(),
        )
        for (const response of answers) expect(response.status).toBeLessThan(500)
      },
    ),
    { numRuns: 150 },
  )
}, 120_000)
