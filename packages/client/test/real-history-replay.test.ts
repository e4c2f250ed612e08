import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createShiplogClient } from '../src/index.ts'
import { type LiveApi, startLiveApi } from './live-api.ts'
import { buildRealHistory, type Deployment, shuffled } from './real-history.ts'
import { CHANGE_TYPES, MONTHS, RECOVERED_AT, SPAN, WEEKS } from './real-history-expected.ts'
import { replayer } from './replay-harness.ts'

// The history of real-history.ts replayed through `shiplog notify`, as a pipeline or a backfill
// script runs it, in five arrival orders, each into a workspace of its own: every order must give
// the change types, failures and DORA figures worked out by hand in real-history-expected.ts, for
// each month asked alone, each week asked alone and as a bucket, and the whole span.

let live: LiveApi
let dir: string
let history: Awaited<ReturnType<typeof buildRealHistory>>

beforeAll(async () => {
  live = await startLiveApi()
  dir = await mkdtemp(join(tmpdir(), 'shiplog-real-history-'))
  history = await buildRealHistory(dir)
}, 60_000)

afterAll(async () => {
  await live?.close()
  await rm(dir, { recursive: true, force: true })
})

/** Replays `order` into a fresh workspace; resolves with what its pages and figures say. */
async function replay(workspace: string, order: Deployment[]) {
  const key = await live.createKey({ workspace, scopes: ['deployments:write', 'read'] })
  const { deploy } = replayer(history.repo, live.url, key)
  for (const each of order) await deploy(each.version, each.commit, each.deployedAt)

  const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
  const { data } = await client.listDeployments({ environment: 'production', limit: 20 })
  const byVersion = (pick: (each: (typeof data)[number]) => unknown) =>
    Object.fromEntries(
      data
        .toSorted((a, b) => a.deployedAt.localeCompare(b.deployedAt))
        .map((each) => [each.version, pick(each)]),
    )
  const figures = async (window: { since: string; until: string }) => {
    const { series, ...whole } = await client.getDoraMetrics({
      environment: 'production',
      since: window.since,
      until: window.until,
    })
    return { whole, series }
  }
  const span = await figures(SPAN)
  return {
    changeTypes: byVersion((each) => each.changeType),
    recoveredAt: byVersion((each) => each.changeFailure?.recoveredAt ?? null),
    span: span.whole,
    buckets: span.series.map(({ start, ...bucket }) => ({ start, ...bucket })),
    months: await Promise.all(MONTHS.map(async (month) => (await figures(month)).whole)),
    weeks: await Promise.all(WEEKS.map(async (week) => (await figures(week)).whole)),
  }
}

/** What every order must give. */
const EXPECTED = {
  changeTypes: CHANGE_TYPES,
  recoveredAt: RECOVERED_AT,
  span: { environment: 'production', since: SPAN.since, until: SPAN.until, ...SPAN.figures },
  buckets: WEEKS.map((week) => ({ start: week.since, ...week.figures })),
  months: MONTHS.map(({ since, until, figures }) => ({
    environment: 'production',
    since,
    until,
    ...figures,
  })),
  weeks: WEEKS.map(({ since, until, figures }) => ({
    environment: 'production',
    since,
    until,
    ...figures,
  })),
}

test('oldest first', async () => {
  expect(await replay('oldest-first', history.deployments)).toEqual(EXPECTED)
}, 120_000)

for (const seed of [7, 23, 2026]) {
  test(`shuffled with seed ${seed}`, async () => {
    const order = shuffled(history.deployments, seed)
    expect(order.map((each) => each.version)).not.toEqual(
      history.deployments.map((each) => each.version),
    )
    expect(await replay(`shuffled-${seed}`, order)).toEqual(EXPECTED)
  }, 120_000)
}

test("the first month's deployments arriving last", async () => {
  const june = history.deployments.filter((each) => each.deployedAt >= '2026-06-01')
  const may = history.deployments.filter((each) => each.deployedAt < '2026-06-01')
  expect(await replay('may-last', [...june, ...may])).toEqual(EXPECTED)
}, 120_000)
