import { expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { harnessPerFile } from '../support/harness.ts'
import {
  adminKey,
  createIntegration,
  deliverGitLab,
  deliveriesOf,
} from '../support/integrations.ts'

// GitLab's own examples (fixtures/README.md names their source), posted byte for byte as read.

const h = harnessPerFile()
const fixture = (name: string) => readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8')

async function gitlabIntegration(name: string) {
  const key = await adminKey(h)
  const integration = await createIntegration(h, key, { source: 'gitlab', name })
  return { key, integration }
}

test('the Deployment Hook example records its deployment once, with source gitlab; a retry is a duplicate', async () => {
  const { key, integration } = await gitlabIntegration('deployments')
  const payload = await fixture('gitlab-deployment-hook.json')
  const first = await deliverGitLab(h, integration, 'Deployment Hook', payload, {
    idempotencyKey: 'f1d8d5b6-1c0a-4a43-8a55-1f1f0f1f0f1f',
  })
  expect(first.status).toBe(202)
  const retried = await deliverGitLab(h, integration, 'Deployment Hook', payload, {
    idempotencyKey: 'f1d8d5b6-1c0a-4a43-8a55-1f1f0f1f0f1f',
  })
  expect(retried.status).toBe(200)
  await h.settle()
  const [duplicate, recorded] = await deliveriesOf(h, key, integration)
  expect(duplicate?.outcome).toBe('duplicate')
  expect(duplicate?.duplicateOf).toBe(recorded?.id as string)
  expect(recorded?.outcome).toBe('recorded')
  const receipt = (await (await h.get(recorded?.deployment as string)).json()) as Record<
    string,
    unknown
  >
  expect(receipt).toMatchObject({
    status: 'recorded',
    source: 'gitlab',
    repositoryFullName: 'root/test-deployment-webhooks',
    environment: 'staging',
    commitHash: '279484c09fbe69ededfced8c1bb6e6d24616b468',
    deployedAt: '2021-04-28T19:50:00.000Z',
  })
})

test('without Idempotency-Key (older GitLab) the same bytes again are a duplicate too', async () => {
  const { key, integration } = await gitlabIntegration('older-gitlab')
  const payload = (await fixture('gitlab-deployment-hook.json')).replace(
    '"status": "success"',
    '"status": "running"',
  )
  expect((await deliverGitLab(h, integration, 'Deployment Hook', payload)).status).toBe(202)
  expect((await deliverGitLab(h, integration, 'Deployment Hook', payload)).status).toBe(200)
  await h.settle()
  const [duplicate, first] = await deliveriesOf(h, key, integration)
  expect([duplicate?.outcome, first?.outcome]).toEqual(['duplicate', 'ignored'])
  expect(first?.reason).toContain("'running' is not a finished deployment")
})

test('a wrong or missing token is 401 and records nothing; a tag push is ignored with the reason', async () => {
  const { key, integration } = await gitlabIntegration('tokens')
  const payload = await fixture('gitlab-deployment-hook.json')
  const before = await h.deploymentCount()
  expect(
    (await deliverGitLab(h, integration, 'Deployment Hook', payload, { token: 'guess' })).status,
  ).toBe(401)
  expect(
    (await deliverGitLab(h, integration, 'Deployment Hook', payload, { token: null })).status,
  ).toBe(401)
  const tag = await deliverGitLab(
    h,
    integration,
    'Tag Push Hook',
    await fixture('gitlab-tag-push-hook.json'),
  )
  expect(tag.status).toBe(202)
  await h.settle()
  expect(await h.deploymentCount()).toBe(before)
  const listed = await deliveriesOf(h, key, integration)
  expect(listed.map((each) => each.outcome)).toEqual(['ignored', 'refused', 'refused'])
  expect(listed[0]?.reason).toContain('tag push')
})

test('the Push Hook example lists 2 of 4 commits: stored, and a deployment of its head has commits unknown', async () => {
  const { key, integration } = await gitlabIntegration('pushes')
  const push = await fixture('gitlab-push-hook.json')
  expect((await deliverGitLab(h, integration, 'Push Hook', push)).status).toBe(202)
  const deployment = JSON.parse(await fixture('gitlab-deployment-hook.json'))
  const head = 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7'
  const deployed = JSON.stringify({
    ...deployment,
    project: { ...deployment.project, path_with_namespace: 'mike/diaspora' },
    short_sha: head.slice(0, 8),
    commit_url: `http://example.com/mike/diaspora/-/commit/${head}`,
  })
  expect((await deliverGitLab(h, integration, 'Deployment Hook', deployed)).status).toBe(202)
  await h.settle()
  const [recorded, pushed] = await deliveriesOf(h, key, integration)
  expect(pushed).toMatchObject({ outcome: 'recorded', commits: 2 })
  const receipt = (await (await h.get(recorded?.deployment as string)).json()) as {
    id: string
    commitsUnknown: string | null
  }
  expect(receipt.commitsUnknown).toBe(
    'the push of da1560886d4f listed 2 of its 4 commits (the host caps the list), so those between the start of the branch and da1560886d4f are not all known',
  )
  expect((await h.get(`/v1/deployments/${receipt.id}/commits`)).status).toBe(404)
})
