import { beforeAll, expect, test } from 'bun:test'
import { exportFirstDeliveries, listFirstDeliveries } from '../dora/first-deliveries.ts'
import { databasePerFile } from '../testing/database-per-file.ts'
import { seedCommits } from '../testing/seed-commits.ts'
import { seedDeployments } from '../testing/seed-deployments.ts'
import { exportDeployments } from './deployment-export.ts'
import { listDeployments } from './deployments.ts'
import { exportRows } from './export-rows.ts'
import { ensureWorkspace } from './workspaces.ts'

// The exports read in chunks, the next fetched while the caller handles this one. Here, with
// chunks far smaller than the API's, on a seeded workspace: every row comes once, in the lists'
// order, with the lists' values, handed one chunk at a time; a reader that fails ends the export
// and leaves the pool sound.

const { sql } = databasePerFile({ applicationName: 'exports-test', maxConnections: 4 })
let workspaceId: string
beforeAll(async () => {
  workspaceId = (await ensureWorkspace(sql, 'exports')).id
  await seedDeployments(sql, {
    workspaceId,
    deployments: 1_200,
    repositories: 2,
    applicationsPerRepository: 3,
    days: 30,
  })
  await seedCommits(sql, { workspaceId, perDeployment: 2 })
}, 60_000)

const OPTIONS = { chunk: 37, timeoutMs: 60_000 }

test('the deployment export holds every recorded deployment once, as the list pages do', async () => {
  const exported: unknown[] = []
  let chunks = 0
  await exportDeployments(sql, { workspaceId }, OPTIONS, async (rows) => {
    chunks++
    exported.push(...rows)
  })
  const listed: unknown[] = []
  let after: Parameters<typeof listDeployments>[1]['after']
  do {
    const page = await listDeployments(sql, { workspaceId, limit: 500, after })
    listed.push(...page.records)
    after = page.next ?? undefined
  } while (after !== undefined)
  expect(listed.length).toBe(1_200)
  expect(chunks).toBe(Math.ceil(1_200 / OPTIONS.chunk))
  expect(exported).toEqual(listed)
})

test('the commit export holds every first delivery once, as the list pages do', async () => {
  const environmentIds = (
    await sql<
      { id: string }[]
    >`select id::text from environments where workspace_id = ${workspaceId}`
  ).map(({ id }) => id)
  const query = { workspaceId, environmentIds }
  const exported: unknown[] = []
  await exportFirstDeliveries(sql, query, OPTIONS, async (rows) => {
    expect(rows.length).toBeLessThanOrEqual(OPTIONS.chunk)
    exported.push(...rows)
  })
  const listed: { deployedAtMicros: string; deploymentId: string; sha: string }[] = []
  for (;;) {
    const last = listed.at(-1)
    const rows = await listFirstDeliveries(
      sql,
      {
        ...query,
        after: last && {
          deployedAtMicros: BigInt(last.deployedAtMicros),
          id: last.deploymentId,
          sha: last.sha,
        },
      },
      500,
    )
    listed.push(...rows.slice(0, 500))
    if (rows.length <= 500) break
  }
  // Not vacuous: many chunks' worth.
  expect(listed.length).toBeGreaterThan(20 * OPTIONS.chunk)
  expect(exported).toEqual(listed)
})

test('chunks are handed one at a time, in order, each after the last was handled', async () => {
  const handed: number[] = []
  let handling = false
  await exportRows<{ n: number }>(
    sql,
    { chunk: 10, timeoutMs: 60_000 },
    (tx) => tx`select n from generate_series(1, 205) n order by n`,
    async (rows) => {
      expect(handling).toBe(false)
      handling = true
      handed.push(...rows.map(({ n }) => n))
      await new Promise((resolve) => setTimeout(resolve, 2))
      handling = false
    },
  )
  expect(handed).toEqual(Array.from({ length: 205 }, (_, index) => index + 1))
})

test('a reader that fails ends the export with its error, and the pool serves the next query', async () => {
  let handed = 0
  const failing = exportRows<{ n: number }>(
    sql,
    { chunk: 10, timeoutMs: 60_000 },
    (tx) => tx`select n from generate_series(1, 1000) n`,
    async () => {
      if (++handed === 3) throw new Error('the reader went away')
    },
  )
  await expect(failing).rejects.toThrow('the reader went away')
  expect(handed).toBe(3)
  const [row] = await sql<{ one: number }[]>`select 1 as one`
  expect(row?.one).toBe(1)
})
