import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { inherited } from './git-repo.ts'
import { type LiveApi, ROOT, startLiveApi } from './live-api.ts'

// `shiplog environments list|set`: the pipeline order of a workspace's environments, read and set
// through a real API.

let live: LiveApi
beforeAll(async () => {
  live = await startLiveApi()
}, 60_000)
afterAll(() => live?.close())

const shiplog = (args: string[], env: Record<string, string>) =>
  runProcess(['bun', join(ROOT, 'packages/client/src/cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...inherited, NO_COLOR: '1', ...env },
  })

/** `shiplog notify` of checkout v1 to `environment`, in GitHub Actions, with `key`. */
const notify = (key: string, environment: string, extra: string[] = []) =>
  shiplog(
    [
      'notify',
      '--url',
      live.url,
      '--app',
      'checkout',
      '--environment',
      environment,
      '--version',
      'v1',
      ...extra,
    ],
    { ...GITHUB_ACTIONS, SHIPLOG_API_KEY: key },
  )

const GITHUB_ACTIONS = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SHA: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  GITHUB_REPOSITORY: 'acme/storefront',
  GITHUB_ACTOR: 'octocat',
}

test('environments list shows the pipeline order; environments set moves one (an environments:write key)', async () => {
  const ops = await live.createKey({
    workspace: 'cli-environments',
    scopes: ['deployments:write', 'read', 'environments:write'],
  })
  for (const environment of ['production', 'staging', 'perf']) {
    const deployed = await notify(ops, environment, ['--wait'])
    expect(deployed.code).toBe(0)
  }
  const env = { SHIPLOG_URL: live.url, SHIPLOG_API_KEY: ops }
  const listed = await shiplog(['environments', 'list'], env)
  expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' })
  expect(listed.stdout.split('\n').filter(Boolean)).toEqual([
    '  30              perf',
    '  40              staging',
    '  50  production  production',
  ])
  const moved = await shiplog(
    ['environments', 'set', 'perf', '--position', '45', '--production'],
    env,
  )
  expect({ code: moved.code, stderr: moved.stderr }).toEqual({ code: 0, stderr: '' })
  expect(moved.stdout.split('\n').filter(Boolean)).toEqual([
    'perf: position 45, production.',
    '  40              staging',
    '  45  production  perf',
    '  50  production  production',
  ])
  const back = await shiplog(['environments', 'set', 'perf', '--by-name'], env)
  expect(back.stdout).toContain('perf: position 30, not production.')
  // The default key may not; a bad flag is exit 2 before anything is sent.
  const pipelineKey = await live.createKey({ workspace: 'cli-environments' })
  const refused = await shiplog(['environments', 'set', 'perf', '--position', '1'], {
    SHIPLOG_URL: live.url,
    SHIPLOG_API_KEY: pipelineKey,
  })
  expect(refused.code).toBe(2)
  expect(refused.stderr).toContain('environments:write')
  const usage = await shiplog(['environments', 'set', 'perf', '--position', 'first'], env)
  expect({ code: usage.code, stderr: usage.stderr.split('\n')[0] }).toEqual({
    code: 2,
    stderr: 'error: --position must be a whole number from 0 to 1000, got first',
  })
})

test('scopes: environments set with an environments:write-only key applies the change and exits 0; notify with a deployments:write-only key says what --wait and the commits need', async () => {
  const workspace = 'cli-scopes'
  const ops = await live.createKey({ workspace, scopes: ['deployments:write', 'read'] })
  expect((await notify(ops, 'perf', ['--wait', '--no-commits'])).code).toBe(0)

  const placer = await live.createKey({ workspace, scopes: ['environments:write'] })
  const placed = await shiplog(['environments', 'set', 'perf', '--position', '5'], {
    SHIPLOG_URL: live.url,
    SHIPLOG_API_KEY: placer,
  })
  expect({ code: placed.code, stderr: placed.stderr }).toEqual({ code: 0, stderr: '' })
  expect(placed.stdout.split('\n').filter(Boolean)).toEqual([
    'perf: position 5, not production.',
    'The environments are not listed: that needs the read scope, which this key has not got.',
  ])
  const listed = await shiplog(['environments', 'list'], {
    SHIPLOG_URL: live.url,
    SHIPLOG_API_KEY: ops,
  })
  expect(listed.stdout).toContain('   5              perf')

  const writer = await live.createKey({ workspace, scopes: ['deployments:write'] })
  const waited = await notify(writer, 'perf', ['--wait', '--no-commits'])
  expect(waited.code).toBe(2)
  expect(waited.stdout).toContain('accepted: checkout v1 to perf')
  expect(waited.stderr).toContain('--wait needs the read scope to follow its receipt')
  const withCommits = await notify(writer, 'perf')
  expect(withCommits.code).toBe(0)
  expect(withCommits.stderr).toContain(
    'the commits were not sent: finding the deployment before this one needs the read scope',
  )
  expect(withCommits.stderr).toContain('or pass --no-commits')
})
