import { expect, test } from 'bun:test'
import { harnessPerFile } from '../support/harness.ts'
import {
  adminKey,
  createIntegration,
  deliverGitHub,
  githubDeploymentSuccess,
} from '../support/integrations.ts'

// A deployment's commits from pushes: a gap says which push is missing and is filled when it
// arrives; a list a pipeline sends wins, whatever arrives after it.

const h = harnessPerFile()
const sha = (name: string) => Buffer.from(name).toString('hex').padEnd(40, '0').slice(0, 40)
const ZEROS = '0'.repeat(40)
const REPOSITORY = {
  name: 'shop',
  full_name: 'acme/shop',
  html_url: 'https://github.com/acme/shop',
  default_branch: 'main',
}

function push(before: string, after: string, names: string[]) {
  return JSON.stringify({
    ref: 'refs/heads/main',
    before,
    after,
    forced: false,
    created: before === ZEROS,
    deleted: false,
    repository: REPOSITORY,
    commits: names.map((name, index) => ({
      id: sha(name),
      message: `Change ${name}`,
      timestamp: `2026-11-10T0${index}:00:00Z`,
      author: { name: 'Ada', email: 'ada@example.com' },
      committer: { name: 'Ada', email: 'ada@example.com' },
    })),
    head_commit: null,
  })
}

const deployed = (id: number, sha: string, at: string) =>
  githubDeploymentSuccess({ id, sha, at }, REPOSITORY)

async function receiptOf(deploymentPath: string) {
  return (await (await h.get(deploymentPath)).json()) as { id: string; commitsUnknown?: string }
}

async function commitsOf(id: string) {
  const response = await h.get(`/v1/deployments/${id}/commits`)
  if (response.status === 404) return undefined
  return ((await response.json()) as { commits: { sha: string }[] }).commits
    .map((c) => c.sha)
    .sort()
}

test('a missing push leaves the commits unknown, said in words; when it arrives the list is complete', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, { source: 'github', name: 'gap' })
  const send = async (event: string, payload: string) => {
    expect((await deliverGitHub(h, integration, event, payload)).status).toBe(202)
    await h.settle()
  }
  await send('push', push(ZEROS, sha('a1'), ['a1']))
  await send('deployment_status', deployed(1, sha('a1'), '2026-11-11T00:00:00Z'))
  await send('push', push(sha('a3'), sha('a4'), ['a4']))
  await send('deployment_status', deployed(2, sha('a4'), '2026-11-12T00:00:00Z'))
  const [second] = await h.sql<{ id: string }[]>`
    select id::text from deployments where commit_hash = ${sha('a4')}`
  const receipt = await receiptOf(`/v1/deployments/${second?.id}`)
  expect(receipt.commitsUnknown).toBe(
    `no push received between ${sha('a1').slice(0, 12)} and ${sha('a3').slice(0, 12)}`,
  )
  expect(await commitsOf(receipt.id)).toBeUndefined()
  await send('push', push(sha('a1'), sha('a3'), ['a2', 'a3']))
  expect((await receiptOf(`/v1/deployments/${receipt.id}`)).commitsUnknown).toBeUndefined()
  expect(await commitsOf(receipt.id)).toEqual([sha('a2'), sha('a3'), sha('a4')].sort())
})

test('a list a pipeline sent wins over pushes, even those that arrive after it', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, { source: 'github', name: 'pipeline wins' })
  const send = async (event: string, payload: string) => {
    expect((await deliverGitHub(h, integration, event, payload)).status).toBe(202)
    await h.settle()
  }
  // Another repository than the first test's, so the two chains never meet.
  const own = (payload: string) => payload.replaceAll('acme/shop', 'acme/till')
  await send('push', own(push(ZEROS, sha('b1'), ['b1'])))
  await send('deployment_status', own(deployed(3, sha('b2'), '2026-11-13T00:00:00Z')))
  const [row] = await h.sql<{ id: string }[]>`
    select id::text from deployments where commit_hash = ${sha('b2')}`
  const id = row?.id as string
  const sent = {
    commits: [
      {
        sha: sha('b2'),
        committedAt: '2026-11-12T09:00:00Z',
        authoredAt: '2026-11-12T09:00:00Z',
        reverts: [],
      },
    ],
  }
  expect((await h.send('PUT', `/v1/deployments/${id}/commits`, { body: sent })).status).toBe(204)
  await send('push', own(push(sha('b1'), sha('b2'), ['b2'])))
  await send('deployment_status', own(deployed(4, sha('b1'), '2026-11-12T12:00:00Z')))
  expect(await commitsOf(id)).toEqual([sha('b2')])
  const [chain] = await h.sql<{ state: string }[]>`
    select state from commit_chains where deployment_id = ${id}`
  expect(chain?.state).toBe('sent')
})

test('pushes that lead back round in a circle leave the commits unknown, and the worker moves on', async () => {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, { source: 'github', name: 'circle' })
  const own = (payload: string) => payload.replaceAll('acme/shop', 'acme/loop')
  // Neither push says it was forced, as GitLab never does: c1 to c2, then back to c1.
  for (const [event, payload] of [
    ['push', own(push(sha('c1'), sha('c2'), ['c2']))],
    ['push', own(push(sha('c2'), sha('c1'), ['c1']))],
    ['deployment_status', own(deployed(5, sha('c1'), '2026-11-14T00:00:00Z'))],
  ] as const) {
    expect((await deliverGitHub(h, integration, event, payload)).status).toBe(202)
  }
  await h.settle()
  const [row] = await h.sql<{ id: string }[]>`
    select id::text from deployments where commit_hash = ${sha('c1')}`
  const receipt = await receiptOf(`/v1/deployments/${row?.id}`)
  expect(receipt.commitsUnknown).toBe(`the pushes from ${sha('c1').slice(0, 12)} lead back to it`)
})
