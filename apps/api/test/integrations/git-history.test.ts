import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { runProcess } from '@shiplog/db/testing'
import { notifyCheckout } from '../../../../packages/client/test/git-repo.ts'
import { gitIn, quiet, REPOSITORY, ZEROS } from '../support/git-history.ts'
import { type Harness, startHarness } from '../support/harness.ts'
import {
  createIntegration,
  deliverGitHub,
  githubDeploymentSuccess,
} from '../support/integrations.ts'

// A real repository, made here: a deployment of its first commits, then three pushes (a forced
// push amending the deployed commit, a merge, a `git revert`) and a deployment_status success for
// the head. Delivered to an integration in every order of the four, Shiplog must hold exactly what
// `shiplog notify` of the same history gives: the same DORA figures, the same commits, no CLI
// involved on the integration's side.

const ROOT = new URL('../../../../', import.meta.url).pathname
const CLI = join(ROOT, 'packages/client/src/cli.ts')
const DEPLOYED = { first: '2026-11-02T12:00:00Z', second: '2026-11-06T12:00:00Z' }

let h: Harness
let dir: string
let repo: string
let git: ReturnType<typeof gitIn>['git']
let commit: ReturnType<typeof gitIn>['commit']
let pushPayload: ReturnType<typeof gitIn>['pushPayload']
let served: { base: string; stop: () => Promise<void> }
const shas: Record<
  'initial' | 'deployed' | 'amended' | 'fix' | 'feature' | 'merge' | 'revert',
  string
> = {} as never

/** GitHub's own success example, made the deployment of `sha` as `version` at `at`. */
const statusPayload = (id: number, sha: string, version: string, at: string) =>
  githubDeploymentSuccess({ id, sha, version, at }, REPOSITORY)

beforeAll(async () => {
  h = await startHarness()
  served = await h.serve()
  dir = await mkdtemp(join(tmpdir(), 'shiplog-git-history-'))
  repo = join(dir, 'shop')
  const repository = gitIn(repo)
  ;({ git, commit, pushPayload } = repository)
  await repository.init(dir)
  shas.initial = await commit('a.txt', 'Start the shop', '2026-11-01T09:00:00Z')
  shas.deployed = await commit('b.txt', 'Add the basket', '2026-11-01T10:00:00Z')
  // Deployed, then amended and force-pushed: the deployed commit is what the push replaced.
  await writeFile(join(repo, 'b.txt'), 'Add the basket, with totals\n')
  await git(['add', 'b.txt'])
  await git(
    ['commit', '--quiet', '--amend', '-m', 'Add the basket with totals'],
    '2026-11-03T09:00:00Z',
  )
  shas.amended = await git(['rev-parse', 'HEAD'])
  await git(['checkout', '--quiet', '-b', 'feature'])
  shas.feature = await commit('c.txt', 'Faster search', '2026-11-03T10:00:00Z')
  await git(['checkout', '--quiet', 'main'])
  shas.fix = await commit('d.txt', 'Fix the totals', '2026-11-03T11:00:00Z')
  await git(
    ['merge', '--quiet', '--no-ff', '-m', 'Merge branch feature', 'feature'],
    '2026-11-04T09:00:00Z',
  )
  shas.merge = await git(['rev-parse', 'HEAD'])
  await git(['revert', '--no-edit', shas.feature], '2026-11-05T09:00:00Z')
  shas.revert = await git(['rev-parse', 'HEAD'])
}, 60_000)

afterAll(async () => {
  await served?.stop()
  await h?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** What a workspace holds: the DORA figures of the window and the commits lead time counted. */
async function holdings(key: string) {
  const window = 'environment=production&since=2026-11-01&until=2026-11-08'
  const dora = await (await h.get(`/v1/metrics/dora?${window}`, { key })).json()
  const commits = (await (await h.get(`/v1/commits?${window}`, { key })).json()) as {
    data: Record<string, unknown>[]
  }
  return {
    dora,
    commits: commits.data.map(({ deploymentId: _, ...rest }) => rest),
  }
}

async function notified() {
  const { key } = await issueApiKey(h.sql, { workspace: 'notified', name: 'pipeline' })
  const notify = async (version: string, sha: string, at: string) => {
    // The pipelines' own arguments, but without --wait: this test runs the worker by hand.
    const args = notifyCheckout(version, sha, at).filter((arg) => arg !== '--wait')
    const run = await runProcess(['bun', CLI, ...args, '--url', served.base], {
      cwd: repo,
      env: { ...quiet, NO_COLOR: '1', SHIPLOG_API_KEY: key },
    })
    expect(run.code).toBe(0)
    await h.drain()
  }
  await notify('v1', shas.deployed, DEPLOYED.first)
  await notify('v2', shas.revert, DEPLOYED.second)
  return holdings(key)
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items]
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [
      item,
      ...rest,
    ]),
  )
}

test('every order of three pushes and a success gives what shiplog notify gives', async () => {
  const expected = await notified()
  // The history is worth comparing: lead time counts the second deployment's five commits.
  expect(expected.commits.map((each) => each.sha).sort()).toEqual(
    [shas.amended, shas.feature, shas.fix, shas.merge, shas.revert].sort(),
  )
  const prelude = [
    { event: 'push', payload: await pushPayload(ZEROS, shas.deployed, false) },
    { event: 'deployment_status', payload: statusPayload(41, shas.deployed, 'v1', DEPLOYED.first) },
  ]
  const deliveries = [
    { event: 'push', payload: await pushPayload(shas.deployed, shas.amended, true) },
    { event: 'push', payload: await pushPayload(shas.amended, shas.merge, false) },
    { event: 'push', payload: await pushPayload(shas.merge, shas.revert, false) },
    { event: 'deployment_status', payload: statusPayload(42, shas.revert, 'v2', DEPLOYED.second) },
  ]
  let index = 0
  for (const order of permutations(deliveries)) {
    const workspace = `order-${index++}`
    const admin = (await issueApiKey(h.sql, { workspace, name: 'admin', scopes: ['admin'] })).key
    const integration = await createIntegration(h, admin, { source: 'github', name: 'shop' })
    for (const delivery of [...prelude, ...order]) {
      const response = await deliverGitHub(h, integration, delivery.event, delivery.payload)
      expect(response.status).toBe(202)
      // Each delivery is handled before the next arrives: the order is the order of arrival.
      await h.settle()
    }
    expect({
      order: order.map((each) => each.payload.slice(0, 60)),
      ...(await holdings(admin)),
    }).toEqual({
      order: order.map((each) => each.payload.slice(0, 60)),
      ...expected,
    })
  }
}, 120_000)
