import { expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import examples from '@octokit/webhooks-examples'
import { sign } from '@octokit/webhooks-methods'
import { harnessPerFile } from '../support/harness.ts'
import {
  adminKey,
  createIntegration,
  deliverGitHub,
  deliveriesOf,
} from '../support/integrations.ts'

// Every deployment_status, deployment, push and ping example GitHub's payloads come with
// (@octokit/webhooks-examples), sent as GitHub sends them: the bytes signed, then posted as they are.

const h = harnessPerFile()

const examplesOf = (name: string) =>
  (examples as { name: string; examples: Record<string, unknown>[] }[]).find(
    (each) => each.name === name,
  )?.examples ?? []

async function githubIntegration(name: string) {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, { source: 'github', name })
  return { key, integration }
}

test('each deployment_status example records what the rules say, once, with source github', async () => {
  const { key, integration } = await githubIntegration('statuses')
  const statuses = examplesOf('deployment_status')
  expect(statuses.length).toBeGreaterThan(0)
  for (const example of statuses) {
    const response = await deliverGitHub(
      h,
      integration,
      'deployment_status',
      JSON.stringify(example),
    )
    expect(response.status).toBe(202)
  }
  await h.settle()
  const deliveries = await deliveriesOf(h, key, integration)
  expect(deliveries).toHaveLength(statuses.length)
  const recorded = deliveries.filter((delivery) => delivery.outcome === 'recorded')
  const successes = statuses.filter(
    (example) => (example.deployment_status as { state: string }).state === 'success',
  )
  expect(recorded).toHaveLength(successes.length)
  for (const delivery of deliveries.filter((each) => each.outcome !== 'recorded')) {
    expect(delivery.outcome).toBe('ignored')
    expect(delivery.reason).toMatch(/^deployment_status state '\w+' is not a finished deployment/)
  }
  for (const delivery of recorded) {
    const receipt = (await (await h.get(delivery.deployment as string)).json()) as Record<
      string,
      unknown
    >
    expect(receipt.status).toBe('recorded')
    expect(receipt.source).toBe('github')
  }
})

test('a wrong or missing signature is 401, records nothing, and is listed as refused', async () => {
  const { key, integration } = await githubIntegration('forged')
  const [example] = examplesOf('deployment_status').filter(
    (each) => (each.deployment_status as { state: string }).state === 'success',
  )
  const payload = JSON.stringify(example)
  const before = await h.deploymentCount()
  const forged = await deliverGitHub(
    h,
    { ...integration, secret: 'not-the-secret' },
    'deployment_status',
    payload,
  )
  expect(forged.status).toBe(401)
  const unsigned = await deliverGitHub(h, integration, 'deployment_status', payload, {
    signature: null,
  })
  expect(unsigned.status).toBe(401)
  expect(((await unsigned.json()) as { detail: string }).detail).toContain('X-Hub-Signature-256')
  await h.settle()
  expect(await h.deploymentCount()).toBe(before)
  const listed = await deliveriesOf(h, key, integration)
  expect(listed.map((each) => each.outcome)).toEqual(['refused', 'refused'])
  expect(listed[0]?.reason).toContain('bad signature')
})

test('a redelivery is a duplicate of the first and records nothing more; ping answers 200', async () => {
  const { key, integration } = await githubIntegration('redelivered')
  const [example] = examplesOf('deployment_status').filter(
    (each) => (each.deployment_status as { state: string }).state === 'success',
  )
  // Another deployment than the first test's: a status of a minute later.
  const status = example?.deployment_status as Record<string, unknown>
  const payload = JSON.stringify({
    ...example,
    deployment_status: { ...status, created_at: '2021-04-28T21:51:00Z' },
  })
  const before = await h.deploymentCount()
  const first = await deliverGitHub(h, integration, 'deployment_status', payload, {
    delivery: 'd-1',
  })
  const again = await deliverGitHub(h, integration, 'deployment_status', payload, {
    delivery: 'd-1',
  })
  expect(first.status).toBe(202)
  expect(again.status).toBe(200)
  for (const ping of examplesOf('ping')) {
    const response = await deliverGitHub(h, integration, 'ping', JSON.stringify(ping))
    expect(response.status).toBe(200)
  }
  await h.settle()
  expect(await h.deploymentCount()).toBe(before + 1)
  const listed = await outcomeCounts(key, integration)
  expect(listed.duplicate).toBe(1)
  expect(listed.recorded).toBe(1)
  expect(listed.ignored).toBe(examplesOf('ping').length)
})

async function outcomeCounts(key: string, integration: { id: string }) {
  const counts: Record<string, number> = {}
  for (const each of await deliveriesOf(h, key, integration)) {
    counts[each.outcome] = (counts[each.outcome] ?? 0) + 1
  }
  return counts
}

test('an unknown integration is 404; a body over the limit is 413 and stores nothing', async () => {
  const { key, integration } = await githubIntegration('limits')
  const unknown = await deliverGitHub(
    h,
    { ...integration, url: 'http://x/hooks/0190f3c4-5b2e-7c1d-9e8f-a1b2c3d4e5f6' },
    'ping',
    '{}',
  )
  expect(unknown.status).toBe(404)
  const huge = JSON.stringify({ padding: 'x'.repeat(25 * 1024 * 1024) })
  const tooLarge = await deliverGitHub(h, integration, 'push', huge)
  expect(tooLarge.status).toBe(413)
  const listed = await deliveriesOf(h, key, integration)
  expect(listed.map((each) => [each.outcome, each.reason?.startsWith('body too large')])).toEqual([
    ['refused', true],
  ])
})

test('the deliveries list pages newest first, and its cursor reaches the oldest', async () => {
  const { key, integration } = await githubIntegration('paged')
  for (const ping of [1, 2, 3]) {
    await deliverGitHub(h, integration, 'ping', JSON.stringify({ zen: `ping ${ping}` }))
  }
  const page = async (query: string) =>
    (await (
      await h.get(`/v1/integrations/${integration.id}/deliveries?${query}`, { key })
    ).json()) as {
      data: { id: string }[]
      nextCursor: string | null
    }
  const first = await page('limit=2')
  expect(first.data).toHaveLength(2)
  const rest = await page(`limit=2&cursor=${first.nextCursor}`)
  expect(rest).toMatchObject({ nextCursor: null })
  const all = (await deliveriesOf(h, key, integration)).map((each) => each.id)
  expect([...first.data, ...rest.data].map((each) => each.id)).toEqual(all)
  expect(
    (await h.get(`/v1/integrations/${integration.id}/deliveries?limit=0`, { key })).status,
  ).toBe(422)
})

test('each push and deployment example: a default-branch push is stored, the rest ignored with the reason', async () => {
  const { key, integration } = await githubIntegration('pushes')
  const pushes = examplesOf('push')
  const deployments = examplesOf('deployment')
  for (const example of pushes) {
    expect((await deliverGitHub(h, integration, 'push', JSON.stringify(example))).status).toBe(202)
  }
  for (const example of deployments) {
    const response = await deliverGitHub(h, integration, 'deployment', JSON.stringify(example))
    expect(response.status).toBe(202)
  }
  await h.settle()
  const listed = (await deliveriesOf(h, key, integration)).reverse()
  const expected = [
    ...pushes.map((push) => {
      const ref = push.ref as string
      if (ref.startsWith('refs/tags/'))
        return { outcome: 'ignored', reason: expect.stringContaining('a tag push') }
      return { outcome: 'recorded', commits: (push.commits as unknown[]).length }
    }),
    ...deployments.map(() => ({
      outcome: 'ignored',
      reason:
        "a deployment was created, not finished: Shiplog records it when its deployment_status says 'success'",
    })),
  ]
  expect(listed).toMatchObject(expected)
  const [stored] = await h.sql<{ count: number }[]>`
    select count(*)::int as count from pushes p join integration_deliveries d
        on d.integration_id = ${integration.id} and d.event = 'push' and d.state = 'recorded'
     where p.after_sha = ${pushes.find((push) => (push.ref as string).startsWith('refs/heads/'))?.after as string}`
  expect(stored?.count).toBeGreaterThan(0)
})

test('a signed body that cannot be JSON (a NUL, bytes that are not UTF-8, a form) is 400 and listed as refused', async () => {
  const { key, integration } = await githubIntegration('not json')
  for (const payload of ['\u0000', '{"a":"\u0000"}']) {
    expect((await deliverGitHub(h, integration, 'deployment_status', payload)).status).toBe(400)
  }
  const latin1 = new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x7d])
  // Signed over its own bytes, as GitHub signs: Octokit's sign takes a string, which these are not.
  const signature = `sha256=${createHmac('sha256', integration.secret).update(latin1).digest('hex')}`
  const response = await h.send('POST', new URL(integration.url).pathname, {
    key: null,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'ping',
      'x-github-delivery': crypto.randomUUID(),
      'x-hub-signature-256': signature,
    },
    rawBody: latin1,
  })
  expect(response.status).toBe(400)
  const form = `payload=${encodeURIComponent(JSON.stringify({ zen: 'Design for failure.' }))}`
  const formSigned = await h.send('POST', new URL(integration.url).pathname, {
    key: null,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-github-event': 'ping',
      'x-github-delivery': crypto.randomUUID(),
      'x-hub-signature-256': await sign(integration.secret, form),
    },
    rawBody: form,
  })
  expect(formSigned.status).toBe(400)
  const listed = await deliveriesOf(h, key, integration)
  expect(listed.map((each) => each.outcome)).toEqual(['refused', 'refused', 'refused', 'refused'])
})

test('a flood of forged deliveries is refused each time, and listed ten at once, then one a second', async () => {
  const { key, integration } = await githubIntegration('flooded')
  const forged = { ...integration, secret: 'a guess' }
  const statuses = []
  for (let sent = 0; sent < 25; sent++) {
    statuses.push((await deliverGitHub(h, forged, 'ping', '{}')).status)
  }
  expect(new Set(statuses)).toEqual(new Set([401]))
  const listed = await deliveriesOf(h, key, integration)
  expect(listed.length).toBeGreaterThanOrEqual(10)
  expect(listed.length).toBeLessThan(15)
})
