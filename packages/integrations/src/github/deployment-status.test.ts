import { expect, test } from 'bun:test'
import examples from '@octokit/webhooks-examples'
import { validateDeployment } from '@shiplog/schema'
import { outcomeOfDeploymentStatus } from './deployment-status.ts'

// Every deployment_status example of @octokit/webhooks-examples (GitHub's own payloads,
// collected by Octokit), as GitHub sends it.

const deliveriesOf = (name: string) =>
  (examples.find((event) => event.name === name)?.examples ?? []) as unknown[]
const statuses = deliveriesOf('deployment_status')
const headers = new Headers({ 'x-github-event': 'deployment_status' })

test('the examples hold both a success and a state that is not finished', () => {
  const states = statuses.map(
    (body) => (body as { deployment_status: { state: string } }).deployment_status.state,
  )
  expect(states).toContain('success')
  expect(states.some((state) => state !== 'success')).toBe(true)
})

test('a success records the deployment the rules say, and the contract accepts it', () => {
  for (const body of statuses) {
    const {
      deployment_status: status,
      deployment,
      repository,
    } = body as {
      deployment_status: { state: string; created_at: string; environment: string }
      deployment: { sha: string; ref: string; creator: { login: string }; environment: string }
      repository: { full_name: string; name: string }
    }
    const outcome = outcomeOfDeploymentStatus({ body, headers }, {})
    if (status.state !== 'success') {
      expect(outcome).toEqual({
        outcome: 'ignored',
        reason: `deployment_status state '${status.state}' is not a finished deployment: only 'success' records one`,
      })
      continue
    }
    expect(outcome).toEqual({
      outcome: 'record',
      senderDeploymentId: String((deployment as unknown as { id: number }).id),
      deployment: {
        repositoryFullName: repository.full_name,
        environment: status.environment,
        app: repository.name,
        version: deployment.ref,
        commitHash: deployment.sha,
        deployedAt: status.created_at,
        author: deployment.creator.login,
        description: null,
      },
    })
    if (outcome.outcome !== 'record') throw new Error('recorded')
    expect(validateDeployment(outcome.deployment, new Date('2026-01-01')).ok).toBe(true)
  }
})

test('the payload names the app and version first; the mapping fills what it leaves out', () => {
  const [success] = statuses.filter(
    (body) =>
      (body as { deployment_status: { state: string } }).deployment_status.state === 'success',
  ) as Record<string, Record<string, unknown>>[]
  if (!success) throw new Error('an example succeeds')
  const named = {
    ...success,
    deployment: { ...success.deployment, payload: { app: 'checkout', version: '1.4.2' } },
  }
  const byPayload = outcomeOfDeploymentStatus({ body: named, headers }, { app: 'web' })
  expect(byPayload.outcome === 'record' && byPayload.deployment).toMatchObject({
    app: 'checkout',
    version: '1.4.2',
  })
  const byMapping = outcomeOfDeploymentStatus(
    { body: success, headers },
    { app: [{ from: 'deployment.payload.service' }, 'web'], environment: 'prod-eu' },
  )
  expect(byMapping.outcome === 'record' && byMapping.deployment).toMatchObject({
    app: 'web',
    environment: 'prod-eu',
  })
  const bySha = outcomeOfDeploymentStatus(
    {
      body: { ...success, deployment: { ...success.deployment, ref: success.deployment?.sha } },
      headers,
    },
    {},
  )
  expect(bySha.outcome === 'record' && bySha.deployment.version).toBe(
    String(success.deployment?.sha).slice(0, 12),
  )
})

test('failure and error say which GitHub deployment failed; an odd body is ignored, never thrown', () => {
  const [success] = statuses as Record<string, Record<string, unknown>>[]
  for (const state of ['failure', 'error']) {
    const failed = { ...success, deployment_status: { ...success?.deployment_status, state } }
    expect(outcomeOfDeploymentStatus({ body: failed, headers }, {})).toEqual({
      outcome: 'failure',
      senderDeploymentId: String(success?.deployment?.id),
      state,
      at: String(success?.deployment_status?.created_at),
    })
  }
  for (const body of [
    null,
    3,
    'text',
    [],
    {},
    { deployment_status: [] },
    { deployment: { sha: {} } },
  ]) {
    expect(outcomeOfDeploymentStatus({ body, headers }, {}).outcome).toBe('ignored')
  }
})
