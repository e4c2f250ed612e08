import { expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import {
  outcomeOfDeploymentHook,
  rfc3339OfGitLabTime,
} from '@shiplog/integrations/gitlab/deployment-hook'
import { validateDeployment } from '@shiplog/schema'
import fc from 'fast-check'
import { gitLabTokenMatches } from '../../src/modules/integrations/gitlab/token.ts'

// GitLab's own Deployment Hook example (fixtures/README.md names its source), read as sent.

const raw = await readFile(new URL('fixtures/gitlab-deployment-hook.json', import.meta.url), 'utf8')
const example = JSON.parse(raw) as Record<string, unknown>
const headers = new Headers({ 'x-gitlab-event': 'Deployment Hook' })

test('the documented success records its deployment, and the contract accepts it', () => {
  const outcome = outcomeOfDeploymentHook({ body: example, headers }, {})
  expect(outcome).toEqual({
    outcome: 'record',
    senderDeploymentId: '15',
    deployment: {
      repositoryFullName: 'root/test-deployment-webhooks',
      environment: 'staging',
      app: 'test-deployment-webhooks',
      version: '279484c09fbe',
      commitHash: '279484c09fbe69ededfced8c1bb6e6d24616b468',
      deployedAt: '2021-04-28T21:50:00+02:00',
      author: 'root',
      description: null,
    },
  })
  if (outcome.outcome !== 'record') throw new Error('recorded')
  expect(validateDeployment(outcome.deployment, new Date('2026-01-01')).ok).toBe(true)
})

test('nested groups stay in the repository; the mapping names the app; a bare short SHA is kept', () => {
  const nested = {
    ...example,
    project: { ...(example.project as object), path_with_namespace: 'acme/platform/api' },
    commit_url: null,
  }
  const outcome = outcomeOfDeploymentHook({ body: nested, headers }, { app: 'gateway' })
  expect(outcome.outcome === 'record' && outcome.deployment).toMatchObject({
    repositoryFullName: 'acme/platform/api',
    app: 'gateway',
    commitHash: '279484c0',
  })
})

test('running and canceled are ignored with the reason; failed names the failed deployment', () => {
  for (const status of ['running', 'canceled']) {
    expect(outcomeOfDeploymentHook({ body: { ...example, status }, headers }, {})).toEqual({
      outcome: 'ignored',
      reason: `Deployment Hook status '${status}' is not a finished deployment: only 'success' records one`,
    })
  }
  expect(outcomeOfDeploymentHook({ body: { ...example, status: 'failed' }, headers }, {})).toEqual({
    outcome: 'failure',
    senderDeploymentId: '15',
    state: 'failed',
    at: '2021-04-28T21:50:00+02:00',
  })
})

test('GitLab’s time format becomes RFC 3339; anything else is refused in words', () => {
  expect(rfc3339OfGitLabTime('2021-04-28 21:50:00 +0200')).toBe('2021-04-28T21:50:00+02:00')
  expect(rfc3339OfGitLabTime('2021-04-28 21:50:00 -0530')).toBe('2021-04-28T21:50:00-05:30')
  expect(rfc3339OfGitLabTime('2021-04-28 21:50:00 UTC')).toBe('2021-04-28T21:50:00Z')
  for (const text of ['2021-04-28T21:50:00Z', '2021-04-28 21:50 +0200', '', 'yesterday']) {
    expect(rfc3339OfGitLabTime(text)).toBeUndefined()
  }
  const odd = outcomeOfDeploymentHook(
    { body: { ...example, status_changed_at: 'yesterday' }, headers },
    {},
  )
  expect(odd.outcome).toBe('ignored')
})

test('property: no body, however odd, throws', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (body) => {
      const outcome = outcomeOfDeploymentHook({ body, headers }, {})
      expect(['record', 'failure', 'ignored']).toContain(outcome.outcome)
    }),
  )
})

test('the token matches the current or the rotated secret, and nothing else', async () => {
  expect(await gitLabTokenMatches(['current', 'previous'], 'current')).toBe(true)
  expect(await gitLabTokenMatches(['current', 'previous'], 'previous')).toBe(true)
  for (const header of [null, '', 'curren', 'current ', 'CURRENT']) {
    expect({ header, ok: await gitLabTokenMatches(['current', 'previous'], header) }).toEqual({
      header,
      ok: false,
    })
  }
})
