import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import {
  type DeploymentJob,
  EARLIEST_MICROS,
  instantFromMicros,
  LATEST_MICROS,
  nameKey,
} from '@shiplog/schema'
import fc from 'fast-check'
import { createSql, type Sql, type Tx } from './client.ts'
import { replaceDeploymentCommits } from './queries/deployment-commits.ts'
import { recordDeployments } from './queries/record-deployments.ts'
import { ensureWorkspace } from './queries/workspaces.ts'
import { readModelMatches, rebuildReadModel, verifyReadModel } from './read-model.ts'
import {
  APPS,
  type Content,
  ENVIRONMENTS,
  emptyRecordedTables,
  jobId,
  microsOf,
  REPOSITORIES,
  toJob,
} from './testing/recorded-jobs.ts'
import { createTestDatabase, type TestDatabase } from './testing/test-database.ts'

// The read model (migrations 0004 and 0014) must hold exactly what its expected_* views compute
// from the deployments and their commit lists, whatever the worker records and whenever
// pipelines send lists: duplicates, aliases, backfills, ties, concurrent batches, lists for
// deployments still queued or for repeated deliveries, replaced lists, instants at every boundary
// of its day and week numbering. Each check is made twice:
// by verifyReadModel, and against a recount done here in TypeScript from the deployments' rows,
// so a mistake shared by the trigger and the views would show too.

let database: TestDatabase
let sql: Sql
let workspaceIds: [string, string]
beforeAll(async () => {
  database = await createTestDatabase()
  sql = createSql(database.url, { applicationName: 'read-model-test', maxConnections: 6 })
  workspaceIds = [(await ensureWorkspace(sql, 'alpha')).id, (await ensureWorkspace(sql, 'beta')).id]
})
afterAll(async () => {
  await sql?.end()
  await database?.drop()
})

const DAY_MICROS = 86_400_000_000n

const VERSIONS = ['1.0.0', '1.0.1', '2.0.0']
const COMMITS = [
  'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
  '9fceb02d0ae598e95dc970b74767f19372d61af8',
  'abcdef1',
]

// Midnights, Mondays and the first bucket of a block of 32 (day 20576 is 2026-05-03, week 2944
// starts 2026-06-01, day -32 is 1969-11-30), each with its neighbours 1 µs away; the epoch and
// the Monday of week 0 from below; the first and last instants a client can send.
const INSTANTS = [
  ...[
    '2026-05-04T00:00:00Z',
    '2026-05-03T00:00:00Z',
    '2026-06-01T00:00:00Z',
    '2026-05-01T12:00:00Z',
    '1970-01-01T00:00:00Z',
    '1969-12-29T00:00:00Z',
    '1969-11-30T00:00:00Z',
  ].flatMap((text) => [microsOf(text) - 1n, microsOf(text), microsOf(text) + 1n]),
  EARLIEST_MICROS,
  EARLIEST_MICROS + 7n * DAY_MICROS - 1n,
  microsOf('9999-12-27T00:00:00Z'),
  LATEST_MICROS,
]

const contentKey = (c: Content) =>
  [
    c.workspace,
    nameKey(c.repository),
    nameKey(c.app),
    nameKey(c.environment),
    c.version,
    c.commitHash,
    c.at,
  ].join('|')
const cellKey = (c: Content) =>
  [c.workspace, nameKey(c.repository), nameKey(c.app), nameKey(c.environment)].join('|')

const content: fc.Arbitrary<Content> = fc.record({
  workspace: fc.constantFrom(0 as const, 1 as const),
  repository: fc.constantFrom(...REPOSITORIES),
  app: fc.constantFrom(...APPS),
  environment: fc.constantFrom(...ENVIRONMENTS),
  version: fc.constantFrom(...VERSIONS),
  commitHash: fc.constantFrom(...COMMITS),
  at: fc.constantFrom(...INSTANTS),
})

/** Another spelling of the same name, when it has one. */
function respell(names: string[], name: string, pick: number): string {
  const same = names.filter((other) => nameKey(other) === nameKey(name))
  return same[pick % same.length] ?? name
}

// One delivery to the worker. References pick an earlier delivery of the same run (modulo how
// many there are); with none yet, the op delivers its own content.
type Op =
  | { kind: 'new'; content: Content }
  // The same job delivered again: same id, same payload.
  | { kind: 'retry'; ref: number; content: Content }
  // The same deployment posted again: a new id, the same fields (perhaps spelled otherwise).
  | { kind: 'alias'; ref: number; spelling: number; content: Content }
  // Another deployment of the same cell at the same instant: a tie broken by id.
  | { kind: 'tie'; ref: number; spelling: number; content: Content }
  // Another deployment of the same cell at another instant: often older, a backfill.
  | { kind: 'sibling'; ref: number; spelling: number; content: Content }

const ref = fc.nat({ max: 1_000 })
const spelling = fc.nat({ max: 3 })
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('new' as const), content }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retry' as const), ref, content }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('alias' as const), ref, spelling, content }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('tie' as const), ref, spelling, content }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('sibling' as const), ref, spelling, content }),
  },
)
/** The rank orders job ids, so ties in deployedAt fall either way. */
const delivery = fc.record({ op, rank: fc.nat({ max: 0xffff_ffff }) })
const batch = fc.array(delivery, { minLength: 1, maxLength: 10 })
// Deployments to void during a step, by their place among those recorded and not voided yet.
const voids = fc.array(fc.nat({ max: 1_000 }), { maxLength: 2 })
// Few SHAs, so deployments deliver the same commits and revert each other's.
const SHAS = [
  '1111111111111111111111111111111111111111',
  '2222222222222222222222222222222222222222',
  '3333333333333333333333333333333333333333',
  '4444444444444444444444444444444444444444',
]
const listedCommit = fc.record({
  sha: fc.constantFrom(...SHAS),
  at: fc.constantFrom(...INSTANTS),
  reverts: fc.subarray(SHAS, { maxLength: 1 }),
})
// A commit list a pipeline stores for one of the run's deliveries (its place among them, modulo
// their number), sent beside the step's batches: the delivery may be recorded, still queued (a
// later step records it), or a repeated delivery; an empty list clears one stored before.
// Places drawn from a few, so lists land on the same delivery again.
const list = fc.record({
  ref: fc.nat({ max: 12 }),
  commits: fc.uniqueArray(listedCommit, { selector: (commit) => commit.sha, maxLength: 3 }),
})
const lists = fc.array(list, { maxLength: 2 })
const step = fc.oneof(
  { weight: 3, arbitrary: fc.record({ batches: fc.tuple(batch), voids, lists }) },
  { weight: 1, arbitrary: fc.record({ batches: fc.tuple(batch, batch), voids, lists }) },
)
const run = fc.array(step, { minLength: 1, maxLength: 4 })

/** A delivered job and the content it carries. */
interface Delivered {
  job: DeploymentJob
  content: Content
}

/** What the generated run exercised, so the property cannot pass by never reaching a case. */
const reached = {
  runs: 0,
  retries: 0,
  aliases: 0,
  ties: 0,
  backfills: 0,
  respelled: 0,
  concurrentSteps: 0,
  voids: 0,
  beforeEpoch: 0,
  listsWhileQueued: 0,
  listsReplaced: 0,
  listsOfRepeatedDeliveries: 0,
}

/** Turns the ops of a run into job batches, counting what they exercise. */
function deliveriesOf(steps: { batches: { op: Op; rank: number }[][] }[]) {
  const delivered: Delivered[] = []
  // The latest instant of each cell in earlier steps: a new deployment before it is a backfill.
  const latestBefore = new Map<string, bigint>()
  const seen = new Set<string>()
  const resolved = steps.map(({ batches }) => {
    const inStep: Delivered[] = []
    const out = batches.map((items) =>
      items.map(({ op, rank }) => {
        const previous = delivered[(op.kind === 'new' ? 0 : op.ref) % delivered.length]
        const id = jobId(rank, delivered.length)
        let next: Delivered
        if (op.kind === 'new' || !previous)
          next = { job: toJob(id, op.content, workspaceIds), content: op.content }
        else if (op.kind === 'retry') {
          next = previous
          reached.retries++
        } else {
          const respelled: Content = {
            ...previous.content,
            repository: respell(REPOSITORIES, previous.content.repository, op.spelling),
            app: respell(APPS, previous.content.app, op.spelling + 1),
            environment: respell(ENVIRONMENTS, previous.content.environment, op.spelling + 2),
          }
          if (respelled.app !== previous.content.app) reached.respelled++
          const c: Content =
            op.kind === 'alias'
              ? respelled
              : op.kind === 'tie'
                ? {
                    ...respelled,
                    version: op.content.version,
                    commitHash: op.content.commitHash,
                  }
                : { ...respelled, at: op.content.at }
          next = { job: toJob(id, c, workspaceIds), content: c }
          if (op.kind === 'alias') reached.aliases++
        }
        delivered.push(next)
        inStep.push(next)
        return next
      }),
    )
    for (const { content: c } of inStep) {
      if (seen.has(contentKey(c))) continue
      seen.add(contentKey(c))
      const latest = latestBefore.get(cellKey(c))
      if (latest !== undefined && c.at < latest) reached.backfills++
      if (c.at < 0n) reached.beforeEpoch++
    }
    for (const { content: c } of inStep) {
      const latest = latestBefore.get(cellKey(c))
      if (latest === undefined || c.at > latest) latestBefore.set(cellKey(c), c.at)
    }
    if (batches.length > 1) reached.concurrentSteps++
    return out.map((items) => items.map(({ job }) => job))
  })
  const instantsPerCell = new Map<string, Set<string>>()
  for (const { content: c } of delivered) {
    const key = `${cellKey(c)}|${c.at}`
    const contents = instantsPerCell.get(key) ?? new Set<string>()
    contents.add(contentKey(c))
    instantsPerCell.set(key, contents)
  }
  for (const contents of instantsPerCell.values()) if (contents.size > 1) reached.ties++
  return { delivered, steps: resolved }
}

const record = (jobs: DeploymentJob[]) =>
  sql.begin((tx: Tx) => recordDeployments(tx, jobs)) as Promise<number>

// The read model recomputed here from the deployments, with the calendar arithmetic of
// TypeScript: a day is floor(µs / day), a week runs from the Monday on or before it.
const floorDiv = (a: bigint, b: bigint) => (a - (((a % b) + b) % b)) / b
const dayNumber = (micros: bigint) => Number(floorDiv(micros, DAY_MICROS))
const weekNumber = (micros: bigint) => {
  const day = dayNumber(micros)
  const weekday = new Date(day * 86_400_000).getUTCDay()
  // Monday 1969-12-29 (day -3) starts week 0.
  return (day - ((weekday + 6) % 7) + 3) / 7
}

interface DeploymentRow {
  id: string
  workspaceId: string
  applicationId: string
  environmentId: string
  version: string
  commitHash: string
  micros: string
}

async function deploymentRows(): Promise<DeploymentRow[]> {
  return sql<DeploymentRow[]>`
    select id::text, workspace_id::text as "workspaceId", application_id::text as "applicationId",
           environment_id::text as "environmentId", version, commit_hash as "commitHash",
           (extract(epoch from deployed_at) * 1000000)::bigint::text as micros
      from deployments where voided_at is null`
}

/** Voids deployments by their place among those not voided yet, as DELETE does. */
async function voidSome(places: number[]) {
  for (const place of places) {
    const ids = await sql<{ id: string }[]>`
      select id::text from deployments where voided_at is null order by id`
    const id = ids[place % Math.max(ids.length, 1)]?.id
    if (!id) return
    await sql`update deployments set voided_at = now() where id = ${id} and voided_at is null`
    reached.voids++
  }
}

type ListOp = { ref: number; commits: { sha: string; at: bigint; reverts: string[] }[] }

/**
 * Stores the step's commit lists as the commits endpoint does, counting those sent while their
 * deployment was still queued (recorded by a later step) and those replacing an earlier list.
 */
async function storeLists(
  listOps: ListOp[],
  delivered: Delivered[],
  stepOfDelivery: number[],
  step: number,
  stored: Set<string>,
) {
  for (const { ref: place, commits } of listOps) {
    const index = place % delivered.length
    const target = delivered[index]
    if (!target) continue
    if ((stepOfDelivery[index] ?? 0) > step) reached.listsWhileQueued++
    if (stored.has(target.job.id)) reached.listsReplaced++
    stored.add(target.job.id)
    await replaceDeploymentCommits(sql, target.job.workspaceId, target.job.id, {
      truncated: false,
      commits: commits.map((commit) => ({
        sha: commit.sha,
        committedAt: instantFromMicros(commit.at),
        authoredAt: instantFromMicros(commit.at),
        reverts: commit.reverts,
      })),
    })
  }
}

/** The read model's two tables as sorted lines, and the same recounted from the deployments. */
async function readModelAndRecount() {
  const rows = await deploymentRows()
  const cells = new Map<string, { count: number; latest: DeploymentRow }>()
  const counts = new Map<string, number[]>()
  for (const row of rows) {
    const cell = `${row.workspaceId} ${row.applicationId} ${row.environmentId}`
    const known = cells.get(cell)
    const later =
      !known ||
      BigInt(row.micros) > BigInt(known.latest.micros) ||
      (row.micros === known.latest.micros && row.id > known.latest.id)
    cells.set(cell, { count: (known?.count ?? 0) + 1, latest: later ? row : known.latest })
    for (const [bucketDays, n] of [
      [1, dayNumber(BigInt(row.micros))],
      [7, weekNumber(BigInt(row.micros))],
    ] as const) {
      const key = `${row.workspaceId} ${row.environmentId} ${row.applicationId} ${bucketDays} ${Math.floor(n / 32)}`
      const block = counts.get(key) ?? new Array<number>(32).fill(0)
      block[n - Math.floor(n / 32) * 32] = (block[n - Math.floor(n / 32) * 32] ?? 0) + 1
      counts.set(key, block)
    }
  }
  const recount = {
    cells: [...cells].map(
      ([cell, { count, latest }]) =>
        `${cell} ${count} ${latest.id} ${latest.micros} ${latest.version} ${latest.commitHash}`,
    ),
    // As migration 0005 stores them: 'slot:count' of the non-zero slots, in slot order.
    counts: [...counts].map(
      ([key, block]) =>
        `${key} ${block.flatMap((count, slot) => (count > 0 ? [`${slot}:${count}`] : [])).join(',')}`,
    ),
  }
  const actualCells = await sql<{ line: string }[]>`
    select concat_ws(' ', workspace_id, application_id, environment_id, deployment_count, latest_id,
                     (extract(epoch from latest_deployed_at) * 1000000)::bigint,
                     latest_version, latest_commit_hash) as line
      from deployment_cells`
  const actualCounts = await sql<{ line: string }[]>`
    select concat_ws(' ', workspace_id, environment_id, application_id, bucket_days, block, counts) as line
      from deployment_counts`
  return {
    actual: {
      cells: actualCells.map(({ line }) => line).sort(),
      counts: actualCounts.map(({ line }) => line).sort(),
    },
    recount: { cells: recount.cells.sort(), counts: recount.counts.sort() },
  }
}

/** Asserts the read model exact, by verifyReadModel and by the recount. */
async function expectExact() {
  const checks = await verifyReadModel(sql)
  expect(checks.filter((check) => check.missing > 0 || check.unexpected > 0)).toEqual([])
  expect(readModelMatches(checks)).toBe(true)
  const { actual, recount } = await readModelAndRecount()
  expect(actual).toEqual(recount)
}

describe('the read model, after any run of recorded batches', () => {
  test('property: matches the deployments after every step, sequential or concurrent', async () => {
    await fc.assert(
      fc.asyncProperty(run, async (generated) => {
        reached.runs++
        await emptyRecordedTables(sql)
        const { delivered, steps } = deliveriesOf(generated)
        const stepOfDelivery = steps.flatMap((batches, index) => batches.flat().map(() => index))
        const listed = new Set<string>()
        for (const [index, batches] of steps.entries()) {
          // Voids and lists run beside the step's batches: a void or a list and a batch of one
          // cell must neither deadlock nor miss each other.
          await Promise.all([
            ...batches.map(record),
            voidSome(generated[index]?.voids ?? []),
            storeLists(generated[index]?.lists ?? [], delivered, stepOfDelivery, index, listed),
          ])
          await expectExact()
        }
        const [onAliases] = await sql<{ count: number }[]>`
          select count(*)::int as count from deployment_commit_lists l
           where exists (select 1 from deployment_aliases a where a.id = l.deployment_id)`
        reached.listsOfRepeatedDeliveries += onAliases?.count ?? 0
        // Each distinct deployment was recorded once; every other id became an alias of it.
        const distinct = new Set(delivered.map(({ content: c }) => contentKey(c)))
        const ids = new Set(delivered.map(({ job }) => job.id))
        const [tally] = await sql<{ deployments: number; aliases: number }[]>`
          select (select count(*)::int from deployments) as deployments,
                 (select count(*)::int from deployment_aliases) as aliases`
        expect(tally).toEqual({ deployments: distinct.size, aliases: ids.size - distinct.size })
      }),
      { numRuns: 60 },
    )
    // Not vacuous: the runs reached every case the property is about.
    for (const [what, times] of Object.entries(reached)) {
      expect({ what, reached: times > 5 }).toEqual({ what, reached: true })
    }
  }, 60_000)
})

describe('corruption and repair', () => {
  // Built in the tests: the workspaces exist only once beforeAll has run.
  const fixture = (): DeploymentJob[] => [
    toJob(
      jobId(1, 1),
      {
        workspace: 0,
        repository: 'acme/shop',
        app: 'api',
        environment: 'production',
        version: '1.0.0',
        commitHash: COMMITS[0] as string,
        at: microsOf('2026-05-04T00:00:00Z'),
      },
      workspaceIds,
    ),
    toJob(
      jobId(2, 2),
      {
        workspace: 0,
        repository: 'acme/shop',
        app: 'api',
        environment: 'production',
        version: '1.0.1',
        commitHash: COMMITS[1] as string,
        at: microsOf('1969-12-31T23:59:59.999999Z'),
      },
      workspaceIds,
    ),
    toJob(
      jobId(3, 3),
      {
        workspace: 1,
        repository: 'other/tools',
        app: 'worker',
        environment: 'staging',
        version: '2.0.0',
        commitHash: COMMITS[2] as string,
        at: microsOf('2026-05-01T12:00:00Z'),
      },
      workspaceIds,
    ),
  ]

  test('a changed count, a lost cell and a stray block are reported by table; rebuild restores them', async () => {
    await emptyRecordedTables(sql)
    const jobs = fixture()
    expect(await record(jobs)).toBe(3)
    await expectExact()
    const before = await verifyReadModel(sql)
    // Two cells; per cell and per width one block each for the first, two for the api cell.
    expect(before.map(({ table, rows }) => ({ table, rows }))).toEqual([
      { table: 'deployment_cells', rows: 2 },
      { table: 'deployment_counts', rows: 6 },
      // The first deployment of each cell is an initial change; the api's second is forward.
      { table: 'deployment_dora_facts', rows: 2 },
    ])

    // One more deployment on the api's day of 2026-05-04 than there was.
    const day = dayNumber(microsOf('2026-05-04T00:00:00Z'))
    const changed = await sql<{ counts: string }[]>`
      update deployment_counts c set counts = add_block_counts(counts, ${`${day & 31}:1`})
        from applications a
       where a.id = c.application_id and a.name_key = 'api' and c.bucket_days = 1
         and c.block = ${day >> 5}
      returning counts`
    expect(changed.length).toBe(1)
    const counted = await verifyReadModel(sql)
    expect(readModelMatches(counted)).toBe(false)
    expect(counted.map(({ examples: _, ...check }) => check)).toEqual([
      { table: 'deployment_cells', rows: 2, missing: 0, unexpected: 0 },
      { table: 'deployment_counts', rows: 6, missing: 1, unexpected: 1 },
      { table: 'deployment_dora_facts', rows: 2, missing: 0, unexpected: 0 },
    ])
    const [, countsCheck] = counted
    const examples = (countsCheck?.examples ?? []).map((line) => ({
      side: line.slice(0, 1),
      row: JSON.parse(line.slice(2)),
    }))
    expect(examples.map(({ side, row }) => [side, row.bucket_days, row.block, row.counts])).toEqual(
      [
        ['-', 1, day >> 5, `${day & 31}:1`],
        ['+', 1, day >> 5, `${day & 31}:2`],
      ],
    )
    expect(Object.keys(examples[0]?.row ?? {})).toEqual([
      'workspace_id',
      'environment_id',
      'application_id',
      'bucket_days',
      'block',
      'counts',
    ])

    // A cell lost, and a block no deployment falls in.
    await sql`
      delete from deployment_cells c using environments e
       where e.id = c.environment_id and e.name_key = 'staging'`
    await sql`
      insert into deployment_counts
      select workspace_id, environment_id, application_id, 7, block - 100, counts
        from deployment_counts where bucket_days = 7 limit 1`
    const broken = await verifyReadModel(sql)
    expect(broken.map(({ examples: _, ...check }) => check)).toEqual([
      { table: 'deployment_cells', rows: 1, missing: 1, unexpected: 0 },
      { table: 'deployment_counts', rows: 7, missing: 1, unexpected: 2 },
      { table: 'deployment_dora_facts', rows: 2, missing: 0, unexpected: 0 },
    ])
    const [cellsCheck] = broken
    expect(cellsCheck?.examples.length).toBe(1)
    expect(JSON.parse(cellsCheck?.examples[0]?.slice(2) ?? '{}')).toMatchObject({
      deployment_count: 1,
      latest_id: jobs[2]?.id,
      latest_version: '2.0.0',
    })

    await rebuildReadModel(sql)
    await expectExact()
    expect(await verifyReadModel(sql)).toEqual(before)
  })

  test('a stale latest deployment is reported, not only wrong counts', async () => {
    await emptyRecordedTables(sql)
    await record(fixture())
    await sql`update deployment_cells set latest_version = 'stale' where latest_version = '1.0.0'`
    const checks = await verifyReadModel(sql)
    expect(
      checks.map(({ table, missing, unexpected }) => ({ table, missing, unexpected })),
    ).toEqual([
      { table: 'deployment_cells', missing: 1, unexpected: 1 },
      { table: 'deployment_counts', missing: 0, unexpected: 0 },
      { table: 'deployment_dora_facts', missing: 0, unexpected: 0 },
    ])
    await rebuildReadModel(sql)
    await expectExact()
  })
})

describe('the latest deployment of a cell', () => {
  const id = (last: string) => `00000000-0000-7000-8000-${last.padStart(12, '0')}`

  async function latestOf(environment: string) {
    const [row] = await sql<{ count: number; id: string; at: string; version: string }[]>`
      select c.deployment_count::int as count, c.latest_id::text as id,
             iso_utc(c.latest_deployed_at) as at, c.latest_version as version
        from deployment_cells c join environments e on e.id = c.environment_id
       where e.name_key = ${environment}`
    return row
  }

  // Each case in its own environment; the instants are where the numbering turns over.
  for (const [environment, instant] of [
    ['production', '2026-05-04T00:00:00Z'],
    ['staging', '1969-12-29T00:00:00Z'],
    ['dev', '0001-01-01T00:00:00.000001Z'],
  ] as const) {
    test(`follows (deployedAt, id), ties in deployedAt included (${instant})`, async () => {
      await emptyRecordedTables(sql)
      const t = microsOf(instant)
      const deploy = (last: string, micros: bigint, version: string) =>
        toJob(
          id(last),
          {
            workspace: 0,
            repository: 'acme/shop',
            app: 'api',
            environment,
            version,
            commitHash: COMMITS[0] as string,
            at: micros,
          },
          workspaceIds,
        )
      const iso = (micros: bigint) => instantFromMicros(micros).iso
      const expectLatest = async (count: number, last: string, micros: bigint, version: string) => {
        expect(await latestOf(environment)).toEqual({
          count,
          id: id(last),
          at: iso(micros),
          version,
        })
        await expectExact()
      }

      await record([deploy('b', t, 'b')])
      await expectLatest(1, 'b', t, 'b')
      // The same instant, a lower id: not later.
      await record([deploy('a', t, 'a')])
      await expectLatest(2, 'b', t, 'b')
      // The same instant, a higher id: later.
      await record([deploy('c', t, 'c')])
      await expectLatest(3, 'c', t, 'c')
      // An older deployment with the highest id yet (a backfill): not later.
      await record([deploy('f', t - 1n, 'f')])
      await expectLatest(4, 'c', t, 'c')
      // Two in one batch at the same instant, 1 µs later: the higher id wins.
      await record([deploy('e', t + 1n, 'e'), deploy('1', t + 1n, '1')])
      await expectLatest(6, 'e', t + 1n, 'e')
      // The same deployment again under another id: an alias, nothing changes.
      await record([deploy('ff', t + 1n, 'e')])
      await expectLatest(6, 'e', t + 1n, 'e')
      // Two in one batch, the later one with the lower id, and a tie with the latest.
      await record([deploy('0', t + 2n, '0'), deploy('d', t + 1n, 'd')])
      await expectLatest(8, '0', t + 2n, '0')
    })
  }

  test('two transactions writing one cell at once: the second waits for the first, then adds to it', async () => {
    await emptyRecordedTables(sql)
    const t = microsOf('2026-05-04T00:00:00Z')
    const deploy = (last: string, micros: bigint) =>
      toJob(
        id(last),
        {
          workspace: 1,
          repository: 'acme/infra',
          app: 'web',
          environment: 'production',
          version: last,
          commitHash: COMMITS[1] as string,
          at: micros,
        },
        workspaceIds,
      )
    await record([deploy('1', t - DAY_MICROS)])
    const [cell] = await sql<{ applicationId: string; environmentId: string }[]>`
      select application_id::text as "applicationId", environment_id::text as "environmentId"
        from deployment_cells`
    // Raw inserts, as a SQL import would: only the trigger keeps the model.
    const insert = (tx: Tx, rows: { last: string; micros: bigint }[]) => tx`
      insert into deployments (id, workspace_id, application_id, environment_id, version,
                               commit_hash, deployed_at, received_at)
      select r.id, ${workspaceIds[1]}, ${cell?.applicationId ?? ''}, ${cell?.environmentId ?? ''},
             r.version, ${COMMITS[1] as string}, r.at::timestamptz, now()
        from unnest(${rows.map(({ last }) => id(last))}::uuid[], ${rows.map(({ last }) => last)}::text[],
                    ${rows.map(({ micros }) => instantFromMicros(micros).iso)}::text[]) as r(id, version, at)`
    let inserted = () => {}
    const firstInserted = new Promise<void>((resolve) => {
      inserted = resolve
    })
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const first = sql.begin(async (tx) => {
      await insert(tx, [
        { last: 'b', micros: t },
        { last: '2', micros: t - 2n * DAY_MICROS },
      ])
      inserted()
      await released
    })
    await firstInserted
    const second = sql.begin(async (tx) => {
      await insert(tx, [
        { last: 'c', micros: t },
        { last: '3', micros: t - 40n * DAY_MICROS },
      ])
    })
    // Wait until the second transaction is blocked on the first one's rows of the model.
    for (;;) {
      const [waiting] = await sql<{ count: number }[]>`
        select count(*)::int as count from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'`
      if ((waiting?.count ?? 0) > 0) break
      await Bun.sleep(5)
    }
    release()
    await Promise.all([first, second])
    expect(await latestOf('production')).toEqual({
      count: 5,
      id: id('c'),
      at: instantFromMicros(t).iso,
      version: 'c',
    })
    await expectExact()
  })
})
