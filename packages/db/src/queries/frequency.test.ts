import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type DeploymentJob, EARLIEST_MICROS, LATEST_MICROS, nameKey } from '@shiplog/schema'
import fc from 'fast-check'
import { createSql, type Sql, type Tx } from '../client.ts'
import {
  APPS,
  type Content,
  ENVIRONMENTS,
  emptyRecordedTables,
  jobId,
  microsOf,
  REPOSITORIES,
  toJob,
} from '../testing/recorded-jobs.ts'
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts'
import { deploymentFrequency, type FrequencyCounts } from './frequency.ts'
import type { BucketUnit } from './frequency-window.ts'
import { recordDeployments } from './record-deployments.ts'
import { ensureWorkspace } from './workspaces.ts'

// deploymentFrequency reads whole days and weeks from the read model and part-days from the
// deployments. Here it must agree with a count done the slow way, in TypeScript, from the jobs
// the test recorded: for random deployments and random windows, aligned or not, days or weeks,
// across 1970 and at both ends of the years a client can send.

let database: TestDatabase
let sql: Sql
let workspaceIds: [string, string]
beforeAll(async () => {
  database = await createTestDatabase()
  sql = createSql(database.url, { applicationName: 'frequency-test', maxConnections: 4 })
  workspaceIds = [(await ensureWorkspace(sql, 'alpha')).id, (await ensureWorkspace(sql, 'beta')).id]
})
afterAll(async () => {
  await sql?.end()
  await database?.drop()
})

const DAY = 86_400_000_000n

const WEEK = 7n * DAY

const VERSIONS = ['1.0.0', '2.0.0']
const COMMITS = ['a94a8fe5ccb19ba61c4c0873d391e987982fbbd3', 'abcdef1']

// Deployments and windows gather around the same anchors, so windows find deployments in them:
// a Monday, the epoch (windows around it cross into 1969), the first and the last weeks a client
// can send.
const ANCHORS = [
  microsOf('2026-05-04T00:00:00Z'),
  microsOf('1970-01-01T00:00:00Z'),
  EARLIEST_MICROS,
  microsOf('9999-11-20T00:00:00Z'),
]

const clamp = (micros: bigint) =>
  micros < EARLIEST_MICROS ? EARLIEST_MICROS : micros > LATEST_MICROS ? LATEST_MICROS : micros

// Midnights (Mondays among them), 1 µs either side of one, or anywhere, within ±spread days.
const offset = (spread: number) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: -spread, max: spread }).map((n) => BigInt(n) * DAY) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.integer({ min: -spread, max: spread }), fc.constantFrom(-1n, 1n))
        .map(([days, micro]) => BigInt(days) * DAY + micro),
    },
    { weight: 1, arbitrary: fc.bigInt({ min: -BigInt(spread) * DAY, max: BigInt(spread) * DAY }) },
  )
const near = (anchor: number, spread: number) =>
  offset(spread).map((shift) => clamp((ANCHORS[anchor] as bigint) + shift))

const contentAt = (anchor: number) =>
  fc.record({
    workspace: fc.constantFrom(0 as const, 1 as const),
    repository: fc.constantFrom(...REPOSITORIES),
    app: fc.constantFrom(...APPS),
    environment: fc.constantFrom(...ENVIRONMENTS),
    version: fc.constantFrom(...VERSIONS),
    commitHash: fc.constantFrom(...COMMITS),
    at: near(anchor, 21),
  })

// A delivery is new, or repeats an earlier one (same id: a retry; or a new id: an alias).
const delivery = (anchor: number) =>
  fc.record({
    content: contentAt(anchor),
    repeat: fc.option(fc.record({ ref: fc.nat(), sameId: fc.boolean() }), { freq: 4 }),
    rank: fc.nat({ max: 0xffff_ffff }),
  })

// A window starts near the anchor, or before one of the deployments (of its workspace and
// environment, spelled any way), so that most windows find some.
const window = (anchor: number) =>
  fc.record({
    unit: fc.constantFrom<BucketUnit>('day', 'week'),
    workspace: fc.constantFrom(0 as const, 1 as const),
    // 'qa' has no deployments anywhere.
    environment: fc.constantFrom(...ENVIRONMENTS, 'qa'),
    since: near(anchor, 30),
    target: fc.option(
      fc.record({
        ref: fc.nat(),
        back: offset(30).map((shift) => (shift < 0n ? -shift : shift)),
        spelling: fc.nat({ max: 1 }),
      }),
      { freq: 3 },
    ),
    whole: fc.boolean(),
    days: fc.integer({ min: 1, max: 60 }),
    weeks: fc.integer({ min: 1, max: 20 }),
    // Any length up to 20 weeks; a day window takes it modulo 60 days.
    micros: fc.bigInt({ min: 1n, max: 20n * WEEK }),
  })
type WindowDraw = ReturnType<typeof window> extends fc.Arbitrary<infer T> ? T : never

/** The window a draw names, given the deployments delivered; none if it would be empty. */
function resolveWindow(draw: WindowDraw, delivered: Content[]) {
  const aim = draw.target
  const target = aim ? delivered[aim.ref % delivered.length] : undefined
  const since = target && aim ? clamp(target.at - aim.back) : draw.since
  const span = draw.whole
    ? draw.unit === 'day'
      ? BigInt(draw.days) * DAY
      : BigInt(draw.weeks) * WEEK
    : draw.unit === 'day'
      ? ((draw.micros - 1n) % (60n * DAY)) + 1n
      : draw.micros
  const until = clamp(since + span)
  if (since >= until) return undefined
  if (!target || !aim)
    return {
      unit: draw.unit,
      workspace: draw.workspace,
      environment: draw.environment,
      since,
      until,
    }
  const spellings = ENVIRONMENTS.filter((name) => nameKey(name) === nameKey(target.environment))
  return {
    unit: draw.unit,
    workspace: target.workspace,
    environment: spellings[aim.spelling] ?? target.environment,
    since,
    until,
  }
}

const scenario = fc.integer({ min: 0, max: ANCHORS.length - 1 }).chain((anchor) =>
  fc.record({
    // Mostly around one anchor, a few deployments around another.
    batches: fc.array(fc.array(delivery(anchor), { minLength: 1, maxLength: 12 }), {
      minLength: 1,
      maxLength: 3,
    }),
    strays: fc.array(delivery((anchor + 1) % ANCHORS.length), { maxLength: 3 }),
    windows: fc.array(window(anchor), { minLength: 1, maxLength: 8 }),
  }),
)

const keyOf = (...parts: (string | number | bigint)[]) => parts.join('\u0000')

/**
 * What the recorded batches hold, by the rules of recordDeployments: one deployment per distinct
 * (workspace, repository, app, environment, version, commit, instant), names compared by key; a
 * name keeps the spelling of the lowest job id in the first batch that used it.
 */
function recorded(batches: { job: DeploymentJob; content: Content }[][]) {
  const deployments = new Map<string, Content>()
  const spelling = new Map<string, string>()
  for (const batch of batches) {
    const byId = [...batch].sort((a, b) => (a.job.id < b.job.id ? -1 : a.job.id > b.job.id ? 1 : 0))
    const firstSeen = new Map<string, string>()
    for (const { content: c } of byId) {
      const repository = keyOf(c.workspace, nameKey(c.repository))
      const app = keyOf(repository, nameKey(c.app))
      if (!spelling.has(repository) && !firstSeen.has(repository))
        firstSeen.set(repository, c.repository)
      if (!spelling.has(app) && !firstSeen.has(app)) firstSeen.set(app, c.app)
      const key = keyOf(app, nameKey(c.environment), c.version, c.commitHash, c.at)
      if (!deployments.has(key)) deployments.set(key, c)
    }
    for (const [key, name] of firstSeen) spelling.set(key, name)
  }
  return { deployments: [...deployments.values()], spelling }
}

/** Start of the bucket holding `micros`, from the calendar: midnight, or the Monday before. */
function bucketStartOf(unit: BucketUnit, micros: bigint): bigint {
  const day = (micros - (((micros % DAY) + DAY) % DAY)) / DAY
  const weekday = new Date(Number(day) * 86_400_000).getUTCDay()
  return (unit === 'day' ? day : day - BigInt((weekday + 6) % 7)) * DAY
}

/** The answer counted one deployment at a time. */
function bruteForce(
  { deployments, spelling }: ReturnType<typeof recorded>,
  query: { unit: BucketUnit; workspace: 0 | 1; environment: string; since: bigint; until: bigint },
): FrequencyCounts {
  const width = query.unit === 'day' ? DAY : WEEK
  const first = bucketStartOf(query.unit, query.since)
  const last = bucketStartOf(query.unit, query.until - 1n)
  const buckets: string[] = []
  for (let start = first; start <= last; start += width)
    buckets.push(new Date(Number(start / 1000n)).toISOString())
  const perApp = new Map<string, { repoKey: string; appKey: string; counts: number[] }>()
  for (const c of deployments) {
    if (c.workspace !== query.workspace) continue
    if (nameKey(c.environment) !== nameKey(query.environment)) continue
    if (c.at < query.since || c.at >= query.until) continue
    const repoKey = keyOf(c.workspace, nameKey(c.repository))
    const appKey = keyOf(repoKey, nameKey(c.app))
    const app = perApp.get(appKey) ?? {
      repoKey,
      appKey,
      counts: new Array<number>(buckets.length).fill(0),
    }
    const index = Number((bucketStartOf(query.unit, c.at) - first) / width)
    app.counts[index] = (app.counts[index] ?? 0) + 1
    perApp.set(appKey, app)
  }
  const applications = [...perApp.values()]
    .sort((a, b) =>
      a.repoKey !== b.repoKey ? (a.repoKey < b.repoKey ? -1 : 1) : a.appKey < b.appKey ? -1 : 1,
    )
    .map(({ repoKey, appKey, counts }) => ({
      app: spelling.get(appKey) as string,
      repositoryFullName: spelling.get(repoKey) as string,
      counts,
    }))
  const totals = buckets.map((_, index) =>
    applications.reduce((sum, { counts }) => sum + (counts[index] ?? 0), 0),
  )
  return { buckets, applications, totals }
}

test('property: deploymentFrequency equals a count of the recorded deployments, bucket by bucket', async () => {
  const reached = {
    windows: 0,
    weeks: 0,
    unaligned: 0,
    beforeEpoch: 0,
    nonZero: 0,
    zeroBuckets: 0,
    repeats: 0,
  }
  await fc.assert(
    fc.asyncProperty(scenario, async ({ batches, strays, windows }) => {
      await emptyRecordedTables(sql)
      const all: { job: DeploymentJob; content: Content }[] = []
      const delivered = [...batches, strays].map((items) =>
        items.map(({ content, repeat, rank }) => {
          const earlier = repeat ? all[repeat.ref % Math.max(all.length, 1)] : undefined
          const next = !earlier
            ? { job: toJob(jobId(rank, all.length), content, workspaceIds), content }
            : repeat?.sameId
              ? earlier
              : {
                  job: toJob(jobId(rank, all.length), earlier.content, workspaceIds),
                  content: earlier.content,
                }
          if (earlier) reached.repeats++
          all.push(next)
          return next
        }),
      )
      for (const items of delivered) {
        if (items.length === 0) continue
        await sql.begin((tx: Tx) =>
          recordDeployments(
            tx,
            items.map(({ job }) => job),
          ),
        )
      }
      const model = recorded(delivered)
      for (const draw of windows) {
        const query = resolveWindow(
          draw,
          all.map(({ content }) => content),
        )
        if (!query) continue
        const actual = await deploymentFrequency(sql, {
          workspaceId: workspaceIds[query.workspace],
          environmentKey: nameKey(query.environment),
          bucket: query.unit,
          since: query.since,
          until: query.until,
        })
        const expected = bruteForce(model, query)
        expect({ query, actual }).toEqual({ query, actual: expected })
        reached.windows++
        if (query.unit === 'week') reached.weeks++
        if (query.since % DAY !== 0n || query.until % DAY !== 0n) reached.unaligned++
        if (query.since < 0n) reached.beforeEpoch++
        if (expected.totals.some((n) => n > 0)) reached.nonZero++
        if (expected.applications.some(({ counts }) => counts.includes(0))) reached.zeroBuckets++
      }
    }),
    { numRuns: 60 },
  )
  // Not vacuous: windows of every kind, most finding deployments, some with empty buckets.
  for (const [what, times] of Object.entries(reached)) {
    expect({ what, reached: times > 20 }).toEqual({ what, reached: true })
  }
}, 60_000)
