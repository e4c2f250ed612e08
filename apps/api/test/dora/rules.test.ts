import { afterAll, beforeAll, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { type Harness, startHarness } from '../support/harness.ts'

// The four paths of issue 23 through HTTP, each a short history of one application in
// production, in a workspace of its own, with the figures worked out by hand (docs/dora.md):
// a failure revealed after a window's end, a backfill arriving out of order, a revert
// re-delivered after a rollback, and a release that ships a commit with its own revert.

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

const sha = (digit: string) => digit.repeat(40)
const [C1, C2, C3, C4, C5] = ['1', '2', '3', '4', '5'].map(sha) as [
  string,
  string,
  string,
  string,
  string,
]

interface Commit {
  sha: string
  committedAt: string
  reverts?: string[]
}

/** A workspace of its own, and what a pipeline does there: deploy, list commits, open incidents. */
async function workspace(name: string) {
  const { key } = await h.createKey({
    workspace: name,
    scopes: ['deployments:write', 'incidents:write', 'read'],
  })
  const ids = new Map<string, string>()
  const list = (id: string, commits: Commit[]) =>
    h.send('PUT', `/v1/deployments/${id}/commits`, {
      key,
      body: {
        truncated: false,
        commits: commits.map((c) => ({
          sha: c.sha,
          committedAt: c.committedAt,
          authoredAt: c.committedAt,
          reverts: c.reverts ?? [],
        })),
      },
    })
  return {
    ids,
    list,
    get: (path: string) => h.get(path, { key }),
    async deploy(version: string, commitHash: string, deployedAt: string, commits?: Commit[]) {
      const response = await h.post(validDeployment({ version, commitHash, deployedAt }), { key })
      expect(response.status).toBe(202)
      const id = (response.headers.get('location') as string).split('/').at(-1) as string
      ids.set(version, id)
      if (commits) expect((await list(id, commits)).status).toBe(204)
      await h.drain()
      return id
    },
    async incident(cause: string, startedAt: string) {
      const response = await h.send('POST', '/v1/incidents', {
        key,
        body: {
          environment: 'production',
          title: 'Checkout down',
          startedAt,
          causeDeploymentId: ids.get(cause),
        },
      })
      expect(response.status).toBe(201)
    },
    async dora(since: string, until: string, bucket = 'week') {
      const query = new URLSearchParams({ environment: 'production', since, until, bucket })
      const response = await h.get(`/v1/metrics/dora?${query}`, { key })
      expect(response.status).toBe(200)
      return (await response.json()) as Dora
    },
    async changeTypes() {
      const page = await (await h.get('/v1/deployments?limit=100', { key })).json()
      return Object.fromEntries(
        (page.data as { version: string; changeType: string }[]).map((d) => [
          d.version,
          d.changeType,
        ]),
      )
    },
    async failed(version: string) {
      const receipt = await (await h.get(`/v1/deployments/${ids.get(version)}`, { key })).json()
      return receipt.changeFailure as { recoveredAt: string | null } | null
    },
  }
}

interface Figures {
  deploymentFrequency: { deployments: number }
  changeLeadTime: { commits: number; medianSeconds: number | null }
  changeFailRate: { failed: number; deployments: number }
  failedDeploymentRecoveryTime: { recoveries: number; medianSeconds: number | null; open: number }
  deploymentReworkRate: { rework: number }
}
type Dora = Figures & { since: string; until: string; series: (Figures & { start: string })[] }

/** The counts a person checks, from the five keys. */
const counts = (f: Figures) => ({
  deployments: f.deploymentFrequency.deployments,
  leadCommits: f.changeLeadTime.commits,
  leadMedian: f.changeLeadTime.medianSeconds,
  failed: `${f.changeFailRate.failed}/${f.changeFailRate.deployments}`,
  recoveries: f.failedDeploymentRecoveryTime.recoveries,
  recoveryMedian: f.failedDeploymentRecoveryTime.medianSeconds,
  open: f.failedDeploymentRecoveryTime.open,
  rework: f.deploymentReworkRate.rework,
})

test('a failure revealed after the window ends counts in it, asked alone or as a bucket', async () => {
  const w = await workspace('revealed-later')
  // Week of Monday 04-06: A (initial), B (forward). The next week, C rolls back to A's commit
  // (B failed, recovered at C, 7 days on), and an incident names A as its cause, still open.
  await w.deploy('A', C1, '2026-04-06T10:00:00Z')
  await w.deploy('B', C2, '2026-04-07T10:00:00Z')
  const alone = { since: '2026-04-06T00:00:00.000Z', until: '2026-04-13T00:00:00.000Z' }
  // Asked before anything is known: nothing failed.
  expect(counts(await w.dora(alone.since, alone.until))).toMatchObject({ failed: '0/2', open: 0 })
  await w.deploy('C', C1, '2026-04-14T10:00:00Z')
  await w.incident('A', '2026-04-15T09:00:00Z')

  const week = {
    deployments: 2,
    leadCommits: 0,
    leadMedian: null,
    failed: '2/2',
    recoveries: 1,
    recoveryMedian: 7 * 86_400,
    open: 1,
    rework: 0,
  }
  const asked = await w.dora(alone.since, alone.until)
  expect(counts(asked)).toEqual(week)
  const quarter = await w.dora('2026-04-06T00:00:00Z', '2026-04-20T00:00:00Z')
  expect(counts(quarter.series[0] as Figures)).toEqual(week)
  expect(counts(quarter.series[1] as Figures)).toMatchObject({
    deployments: 1,
    rework: 1,
    failed: '0/0',
  })
  expect(counts(quarter)).toEqual({ ...week, deployments: 3, rework: 1 })
  // The receipts say the same.
  expect(await w.failed('B')).toEqual(
    expect.objectContaining({ recoveredAt: '2026-04-14T10:00:00.000Z' }),
  )
  expect(await w.failed('A')).toEqual(expect.objectContaining({ recoveredAt: null }))
})

// A (initial), B (forward: C2, C3), C (forward: C4 reverts C2: B failed, recovered a day on).
const BACKFILL: [string, string, string, Commit[]][] = [
  ['A', C1, '2026-04-06T10:00:00Z', [{ sha: C1, committedAt: '2026-04-06T08:00:00Z' }]],
  [
    'B',
    C3,
    '2026-04-07T10:00:00Z',
    [
      { sha: C3, committedAt: '2026-04-07T08:00:00Z' },
      { sha: C2, committedAt: '2026-04-07T06:00:00Z' },
    ],
  ],
  [
    'C',
    C4,
    '2026-04-08T10:00:00Z',
    [{ sha: C4, committedAt: '2026-04-08T08:00:00Z', reverts: [C2] }],
  ],
]

test('deployments and their lists arriving newest first give the figures and change types of the in-order replay', async () => {
  const inOrder = await workspace('backfill-in-order')
  for (const [version, commit, at, list] of BACKFILL)
    await inOrder.deploy(version, commit, at, list)
  const reversed = await workspace('backfill-reversed')
  for (const [version, commit, at, list] of [...BACKFILL].reverse())
    await reversed.deploy(version, commit, at, list)

  const week = ['2026-04-06T00:00:00Z', '2026-04-13T00:00:00Z'] as const
  const expected = {
    deployments: 3,
    // C2 (4 h) and C3 (2 h) first delivered by B, C4 (2 h) by C; A is the first: not counted.
    leadCommits: 3,
    leadMedian: 7_200,
    failed: '1/3',
    recoveries: 1,
    recoveryMedian: 86_400,
    open: 0,
    rework: 1,
  }
  expect(counts(await inOrder.dora(...week))).toEqual(expected)
  const { since: _, until: __, ...figures } = await inOrder.dora(...week)
  expect(await reversed.dora(...week)).toMatchObject(figures)
  const types = { A: 'initial', B: 'forward', C: 'forward' }
  expect(await inOrder.changeTypes()).toEqual(types)
  expect(await reversed.changeTypes()).toEqual(types)

  // A list already stored is never emptied: an empty one is refused, the stored one kept.
  const refused = await reversed.list(reversed.ids.get('B') as string, [])
  expect(refused.status).toBe(409)
  expect((await refused.json()).detail).toContain('has 2 commits stored')
  const stored = await reversed.get(`/v1/deployments/${reversed.ids.get('B')}/commits`)
  expect((await stored.json()).commits.map((c: { sha: string }) => c.sha)).toEqual([C3, C2])
  expect(counts(await reversed.dora(...week))).toEqual(expected)
})

test('a revert re-delivered after a rollback is not rework again', async () => {
  const w = await workspace('redelivered-revert')
  await w.deploy('A', C1, '2026-04-06T10:00:00Z', [
    { sha: C1, committedAt: '2026-04-06T08:00:00Z' },
  ])
  await w.deploy('B', C2, '2026-04-06T12:00:00Z', [
    { sha: C2, committedAt: '2026-04-06T11:00:00Z' },
  ])
  // C reverts C2: B failed, recovered at C; C is rework.
  await w.deploy('C', C3, '2026-04-07T10:00:00Z', [
    { sha: C3, committedAt: '2026-04-07T09:00:00Z', reverts: [C2] },
  ])
  // D rolls back to B's commit: C failed, recovered at D; D is rework.
  await w.deploy('D', C2, '2026-04-07T12:00:00Z', [])
  // E ships C4 on top of the revert: git log C2..C4 lists C3 again. Not a revert here.
  await w.deploy('E', C4, '2026-04-08T10:00:00Z', [
    { sha: C4, committedAt: '2026-04-08T09:00:00Z' },
    { sha: C3, committedAt: '2026-04-07T09:00:00Z', reverts: [C2] },
  ])
  const figures = counts(await w.dora('2026-04-06T00:00:00Z', '2026-04-13T00:00:00Z'))
  expect(figures).toMatchObject({ deployments: 5, failed: '2/4', recoveries: 2, rework: 2 })
  expect(await w.failed('E')).toBeNull()
})

test('a release that ships a commit together with its own revert failed nothing, in any order', async () => {
  for (const order of ['in order', 'newest first']) {
    const w = await workspace(`same-release-${order.replace(' ', '-')}`)
    const history: [string, string, string, Commit[]][] = [
      ['A', C1, '2026-04-06T10:00:00Z', [{ sha: C1, committedAt: '2026-04-06T08:00:00Z' }]],
      // B ships C2 and C3, which reverts C2.
      [
        'B',
        C3,
        '2026-04-07T10:00:00Z',
        [
          { sha: C3, committedAt: '2026-04-07T09:00:00Z', reverts: [C2] },
          { sha: C2, committedAt: '2026-04-07T08:00:00Z' },
        ],
      ],
      // C lists the revert again (a history longer than C3..C5, as a first deployment sends).
      [
        'C',
        C5,
        '2026-05-12T10:00:00Z',
        [
          { sha: C5, committedAt: '2026-05-12T09:00:00Z' },
          { sha: C3, committedAt: '2026-04-07T09:00:00Z', reverts: [C2] },
        ],
      ],
    ]
    for (const [version, commit, at, list] of order === 'in order'
      ? history
      : [...history].reverse())
      await w.deploy(version, commit, at, list)
    const figures = counts(await w.dora('2026-04-06T00:00:00Z', '2026-05-18T00:00:00Z'))
    expect({ order, figures }).toMatchObject({
      order,
      figures: { deployments: 3, failed: '0/3', recoveries: 0, open: 0, rework: 0 },
    })
    expect(await w.failed('B')).toBeNull()
  }
})
