import { describe, expect, test } from 'bun:test'
import type { Tx } from './client.ts'
import type { DeploymentJob } from './deployment-job.ts'
import { recordDeployments } from './queries/record-deployments.ts'
import { readModelMatches, rebuildReadModel, verifyReadModel } from './read-model.ts'
import { COMMITS } from './testing/delivery-runs.ts'
import { dayNumber, expectExact } from './testing/read-model-recount.ts'
import { emptyRecordedTables, jobId, microsOf, toJob } from './testing/recorded-jobs.ts'
import { twoWorkspacesPerFile } from './testing/two-workspaces.ts'

// `bun run db:verify` and its `--repair` (read-model.ts): a read model that differs from what the
// deployments call for is reported table by table, with examples, and rebuilt exact.

const files = twoWorkspacesPerFile({ applicationName: 'read-model-test', maxConnections: 6 })
const { sql } = files

const record = (jobs: DeploymentJob[]) =>
  sql.begin((tx: Tx) => recordDeployments(tx, jobs)) as Promise<number>

/** The check finds one cell wrong (a row missing, one unexpected), the rest exact; a rebuild mends it. */
async function expectOneCellOffThenRebuilt() {
  const checks = await verifyReadModel(sql)
  expect(checks.map(({ table, missing, unexpected }) => ({ table, missing, unexpected }))).toEqual([
    { table: 'deployment_cells', missing: 1, unexpected: 1 },
    { table: 'deployment_counts', missing: 0, unexpected: 0 },
    { table: 'deployment_dora_facts', missing: 0, unexpected: 0 },
  ])
  await rebuildReadModel(sql)
  await expectExact(sql)
}

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
      files.workspaceIds,
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
      files.workspaceIds,
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
      files.workspaceIds,
    ),
  ]

  test('a changed count, a lost cell and a stray block are reported by table; rebuild restores them', async () => {
    await emptyRecordedTables(sql)
    const jobs = fixture()
    expect(await record(jobs)).toBe(3)
    await expectExact(sql)
    const before = await verifyReadModel(sql)
    // Two cells, each holding the counts of its latest's day and week; the blocks hold the rest:
    // the api's deployment of 1969, one block per width.
    expect(before.map(({ table, rows }) => ({ table, rows }))).toEqual([
      { table: 'deployment_cells', rows: 2 },
      { table: 'deployment_counts', rows: 2 },
      // The first deployment of each cell is an initial change; the api's second is forward.
      { table: 'deployment_dora_facts', rows: 2 },
    ])

    // One more deployment on the api's last day of 1969 than there was.
    const day = dayNumber(microsOf('1969-12-31T23:59:59.999999Z'))
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
      { table: 'deployment_counts', rows: 2, missing: 1, unexpected: 1 },
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
      { table: 'deployment_counts', rows: 3, missing: 1, unexpected: 2 },
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
    await expectExact(sql)
    expect(await verifyReadModel(sql)).toEqual(before)
  })

  test('a wrong count of the day or week a cell holds is reported as the cell', async () => {
    await emptyRecordedTables(sql)
    await record(fixture())
    await sql`update deployment_cells set latest_week_count = latest_week_count + 1
               where latest_version = '2.0.0'`
    await expectOneCellOffThenRebuilt()
  })

  test('a stale latest deployment is reported, not only wrong counts', async () => {
    await emptyRecordedTables(sql)
    await record(fixture())
    await sql`update deployment_cells set latest_version = 'stale' where latest_version = '1.0.0'`
    await expectOneCellOffThenRebuilt()
  })
})
