import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChangeFailure, ChangeFailureSignal } from '@shiplog/schema'
import { launchBrowser } from '../../../apps/api/test/support/browser.ts'
import { createShiplogClient } from '../src/index.ts'
import { commitAt, git } from './git-repo.ts'
import { type LiveApi, startLiveApi } from './live-api.ts'
import { doraFigures, replayer } from './replay-harness.ts'

// A week of one application in production, replayed through the shiplog CLI from a real git
// repository, and every figure of GET /v1/metrics/dora worked out by hand below.
//
// Commits on main, by committer time (Z): c1 05-01 08:00, c2 05-02 06:00, c3 05-03 10:00,
// c4 05-05 11:00 ("This reverts commit c3"), c5 05-05 12:00, c6 05-06 13:00.
//
// Deployments (deployedAt, Z), the commits notify sends (git log previous..commit), the type:
//   D1  c1 05-01 12:00  none (the first)                 initial
//   D2  c2 05-02 12:00  c2                               forward
//   D3  c2 05-02 14:00  none                             redeploy
//   D4  c3 05-03 12:00  c3                               forward   failed: D5 rolls back past it
//   D5  c2 05-03 13:00  none (c3..c2 is empty)           rollback  to D3's commit: D4 recovered
//   D6  c4 05-05 12:00  c4, c3                           forward   reverts c3, first sent by D4
//   Dv  c5 05-05 13:00  c5, then voided (an admin key)  —         counted nowhere: else D7 would
//                                                                  be a redeploy and c5 Dv's
//   D7  c5 05-06 12:00  c5                               forward   failed: an incident names it
//   D8  c6 05-06 14:00  c6, with --fixes the incident    forward   resolves it at 14:00: D7
//                                                                  recovered, D8 is rework
//   D1b c1 05-01 18:00  none (arrives last: a backfill)  redeploy  (D1's commit, just before)
//
// Window 05-01 00:00 to 05-08 00:00: 7 days. Weeks start on Monday: 04-27 (in the window from
// 05-01, 3 days) and 05-04 (4 days). 05-03 is a Sunday, so D4 and D5 are in the first week.
//
// Whole window:
// - frequency: 9 deployments, 9/7 a day.
// - lead time, commits first delivered by a deployment that is not initial: c2 by D2 (6 h =
//   21,600 s), c3 by D4 (2 h = 7,200 s), c4 by D6 (1 h = 3,600 s), c5 by D7 (24 h = 86,400 s), c6
//   by D8 (1 h = 3,600 s); c3 again in D6 is not a first delivery. Sorted 3,600, 3,600, 7,200,
//   21,600, 86,400: median 7,200; p90 at rank 0.9 × 4 = 3.6: 21,600 + 0.6 × 64,800 = 60,480.
// - change fail rate: initial or forward are D1, D2, D4, D6, D7, D8 (6); failed D4 and D7: 2/6.
//   D4 fails twice (rollback, revert) and counts once.
// - recovery: D4 at D5, its earliest recovery (1 h = 3,600 s; D6 would be later), D7 when its
//   incident was resolved by D8 (2 h = 7,200 s): 2 recoveries, median 5,400, none open.
// - rework: D5 (a rollback), D6 (its commit reverts a failed one), D8 (fixed an incident): 3/9.
// Week of 04-27: D1, D1b, D2, D3, D4, D5: 6 deployments, 6/3 = 2 a day; lead time c2 (21,600)
// and c3 (7,200): median 14,400, p90 7,200 + 0.9 × 14,400 = 20,160; change fail 1 (D4) of 3 (D1,
// D2, D4); recovery 3,600; rework 1 (D5) of 6.
// Week of 05-04: D6, D7, D8: 3 deployments, 3/4 = 0.75 a day; lead time c4 (3,600), c6 (3,600)
// and c5 (86,400): median 3,600, p90 at rank 1.8: 3,600 + 0.8 × 82,800 = 69,840; change fail 1
// (D7) of 3; recovery 7,200; rework 2 (D6, D8) of 3.

let live: LiveApi
let key: string
let dir: string
let shiplog: ReturnType<typeof replayer>['shiplog']
let deploy: ReturnType<typeof replayer>['deploy']

beforeAll(async () => {
  live = await startLiveApi()
  key = await live.createKey({
    workspace: 'dora-replay',
    scopes: ['deployments:write', 'incidents:write', 'read'],
  })
  dir = await mkdtemp(join(tmpdir(), 'shiplog-dora-'))
  ;({ shiplog, deploy } = replayer(join(dir, 'repo'), live.url, key))
}, 60_000)

afterAll(async () => {
  await live?.close()
  await rm(dir, { recursive: true, force: true })
})

test('a replayed week gives every DORA figure and change type worked out by hand', async () => {
  const repo = join(dir, 'repo')
  await git(dir, ['init', '--quiet', '-b', 'main', repo])
  const at = (committed: string) => ({ committed, authored: committed })
  const c1 = await commitAt(repo, 'a', at('2026-05-01T08:00:00Z'), 'one')
  const c2 = await commitAt(repo, 'b', at('2026-05-02T06:00:00Z'), 'two')
  const c3 = await commitAt(repo, 'c', at('2026-05-03T10:00:00Z'), 'three')
  const c4 = await commitAt(
    repo,
    'c',
    at('2026-05-05T11:00:00Z'),
    `Revert "three"\n\nThis reverts commit ${c3}.`,
  )
  const c5 = await commitAt(repo, 'd', at('2026-05-05T12:00:00Z'), 'five')
  const c6 = await commitAt(repo, 'e', at('2026-05-06T13:00:00Z'), 'six')

  await deploy('D1', c1, '2026-05-01T12:00:00Z')
  await deploy('D2', c2, '2026-05-02T12:00:00Z')
  await deploy('D3', c2, '2026-05-02T14:00:00Z')
  const d4 = await deploy('D4', c3, '2026-05-03T12:00:00Z')
  const d5 = await deploy('D5', c2, '2026-05-03T13:00:00Z')
  const d6 = await deploy('D6', c4, '2026-05-05T12:00:00Z')
  const mistake = await deploy('Dv', c5, '2026-05-05T13:00:00Z')
  const operator = await live.createKey({ workspace: 'dora-replay', scopes: ['admin'] })
  const voided = await createShiplogClient({ baseUrl: live.url, apiKey: operator }).voidDeployment(
    mistake,
    { reason: 'deployed by mistake' },
  )
  expect(voided.status).toBe('voided')
  const d7 = await deploy('D7', c5, '2026-05-06T12:00:00Z')
  const opened = await shiplog([
    'incident',
    'open',
    '--environment',
    'production',
    '--app',
    'checkout',
    '--title',
    'Checkout is slow',
    '--cause',
    d7,
  ])
  const incidentId = opened.at(-1) as string
  await deploy('D8', c6, '2026-05-06T14:00:00Z', ['--fixes', incidentId])
  await deploy('D1b', c1, '2026-05-01T18:00:00Z')

  const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
  const page = await client.listDeployments({ environment: 'production', limit: 20 })
  expect(Object.fromEntries(page.data.map((each) => [each.version, each.changeType]))).toEqual({
    D1: 'initial',
    D1b: 'redeploy',
    D2: 'forward',
    D3: 'redeploy',
    D4: 'forward',
    D5: 'rollback',
    D6: 'forward',
    D7: 'forward',
    D8: 'forward',
  })
  // What each receipt says of its failure: D4 twice over, recovered first by D5's rollback; D7
  // by its incident, resolved when D8 deployed.
  const rolledBack: ChangeFailureSignal = {
    kind: 'rollback',
    deploymentId: d5,
    incidentId: null,
    revertedCommit: null,
    recoveredAt: '2026-05-03T13:00:00.000Z',
  }
  const reverted: ChangeFailureSignal = {
    ...rolledBack,
    kind: 'revert',
    deploymentId: d6,
    revertedCommit: c3,
    recoveredAt: '2026-05-05T12:00:00.000Z',
  }
  const d4Failure = { signals: [rolledBack, reverted], recoveredAt: '2026-05-03T13:00:00.000Z' }
  const d7Failure: ChangeFailure = {
    signals: [
      {
        kind: 'incident',
        deploymentId: null,
        incidentId,
        revertedCommit: null,
        recoveredAt: '2026-05-06T14:00:00.000Z',
      },
    ],
    recoveredAt: '2026-05-06T14:00:00.000Z',
  }
  expect(Object.fromEntries(page.data.map((each) => [each.version, each.changeFailure]))).toEqual({
    D1: null,
    D1b: null,
    D2: null,
    D3: null,
    D4: d4Failure,
    D5: null,
    D6: null,
    D7: d7Failure,
    D8: null,
  })
  expect((await client.getDeployment(d4)).changeFailure).toEqual(d4Failure)
  expect((await client.getDeployment(d7)).changeFailure).toEqual(d7Failure)
  expect(await client.getDeployment(mistake)).toMatchObject({
    status: 'voided',
    changeFailure: null,
  })
  expect(await client.getIncident(incidentId)).toMatchObject({
    status: 'resolved',
    resolvedAt: '2026-05-06T14:00:00.000Z',
  })

  const metrics = await client.getDoraMetrics({
    environment: 'production',
    since: '2026-05-01T00:00:00Z',
    until: new Date('2026-05-08T00:00:00Z'),
  })
  expect(metrics).toEqual({
    environment: 'production',
    since: '2026-05-01T00:00:00.000Z',
    until: '2026-05-08T00:00:00.000Z',
    ...doraFigures({
      deployments: 9,
      days: 7,
      lead: [5, 7_200, 60_480],
      fail: [2, 6],
      recovery: [2, 5_400, 0],
      rework: 3,
    }),
    series: [
      {
        start: '2026-04-27T00:00:00.000Z',
        ...doraFigures({
          deployments: 6,
          days: 3,
          lead: [2, 14_400, 20_160],
          fail: [1, 3],
          recovery: [1, 3_600, 0],
          rework: 1,
        }),
      },
      {
        start: '2026-05-04T00:00:00.000Z',
        ...doraFigures({
          deployments: 3,
          days: 4,
          lead: [3, 3_600, 69_840],
          fail: [1, 3],
          recovery: [1, 7_200, 0],
          rework: 2,
        }),
      },
    ],
  })

  // Filtered to the replayed application (spelled otherwise), the figures are the same; filtered
  // to another, the window holds nothing, and every figure without data is null.
  const window = {
    environment: 'production',
    since: '2026-05-01T00:00:00Z',
    until: '2026-05-08T00:00:00Z',
  }
  expect(await client.getDoraMetrics({ ...window, app: 'CHECKOUT' })).toEqual(metrics)
  const elsewhere = await client.getDoraMetrics({ ...window, app: 'billing' })
  expect(elsewhere.deploymentFrequency).toEqual({ deployments: 0, perDay: 0 })
  expect(elsewhere.changeLeadTime).toEqual({ commits: 0, medianSeconds: null, p90Seconds: null })
  expect(elsewhere.changeFailRate).toEqual({ failed: 0, deployments: 0, ratio: null })
  expect(elsewhere.failedDeploymentRecoveryTime).toEqual({
    recoveries: 0,
    medianSeconds: null,
    open: 0,
  })
  expect(elsewhere.deploymentReworkRate).toEqual({ rework: 0, deployments: 0, ratio: null })
  expect(elsewhere.series.map((bucket) => bucket.deploymentFrequency.deployments)).toEqual([0, 0])
}, 90_000)

test('the DORA page shows the same week to a person, in words', async () => {
  const browser = await launchBrowser()
  try {
    const page = await (await browser.newContext()).newPage()
    await page.goto(
      `${live.url}/ui/dora?environment=production&since=2026-05-01T00:00:00Z&until=2026-05-08T00:00:00Z`,
    )
    await page.getByLabel('API key with the read scope').fill(key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL((url) => url.pathname === '/ui/dora')
    const figuresOf = async (name: string) => {
      const region = page.getByRole('region', { name })
      return [
        await region.locator('.figure').textContent(),
        await region.locator('p.muted').textContent(),
      ]
    }
    // The figures worked out above: 9 deployments in 7 days; lead time median 7,200 s and p90
    // 60,480 s; 2 of 6 changes failed; recoveries 3,600 and 7,200 s; 3 of 9 deployments rework.
    expect(await figuresOf('Deployment frequency')).toEqual(['1.29 / day', '9 deployments'])
    expect(await figuresOf('Change lead time')).toEqual([
      '2 h',
      'median of 5 commits; 90th percentile 16 h 48 min',
    ])
    expect(await figuresOf('Change fail rate')).toEqual(['33.3 %', '2 failed of 6 changes'])
    expect(await figuresOf('Failed deployment recovery time')).toEqual([
      '1 h 30 min',
      'median of 2 recoveries; 0 not recovered (2 failed deployments)',
    ])
    expect(await figuresOf('Deployment rework rate')).toEqual([
      '33.3 %',
      '3 rework of 9 deployments',
    ])
  } finally {
    await browser.close()
  }
}, 60_000)
