// The read model's exactness check shared by its tests (read-model*.test.ts): verifyReadModel,
// and a recount done here in TypeScript from the deployments' rows, so a mistake shared by the
// triggers and the expected_* views would show too.
import { expect } from 'bun:test'
import type { Sql } from '../client.ts'
import { readModelMatches, verifyReadModel } from '../read-model.ts'

export const DAY_MICROS = 86_400_000_000n

// The calendar arithmetic of TypeScript: a day is floor(µs / day), a week runs from the Monday
// on or before it.
const floorDiv = (a: bigint, b: bigint) => (a - (((a % b) + b) % b)) / b

/** The UTC day since 1970-01-01 of an instant in microseconds. */
export const dayNumber = (micros: bigint) => Number(floorDiv(micros, DAY_MICROS))

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

async function deploymentRows(sql: Sql): Promise<DeploymentRow[]> {
  return sql<DeploymentRow[]>`
    select id::text, workspace_id::text as "workspaceId", application_id::text as "applicationId",
           environment_id::text as "environmentId", version, commit_hash as "commitHash",
           (extract(epoch from deployed_at) * 1000000)::bigint::text as micros
      from deployments where voided_at is null`
}

/** The cells and count blocks the deployments call for, as sorted lines. */
function recount(rows: DeploymentRow[]) {
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
  return {
    cells: [...cells]
      .map(
        ([cell, { count, latest }]) =>
          `${cell} ${count} ${latest.id} ${latest.micros} ${latest.version} ${latest.commitHash}`,
      )
      .sort(),
    counts: blockLines(counts),
  }
}

/** Blocks with the same key added up, as lines in the recount's form. */
function addedUp(rows: { key: string; counts: string }[]): string[] {
  const blocks = new Map<string, number[]>()
  for (const { key, counts } of rows) {
    const block = blocks.get(key) ?? new Array<number>(32).fill(0)
    for (const pair of counts.split(',')) {
      const [slot, count] = pair.split(':').map(Number)
      block[slot as number] = (block[slot as number] ?? 0) + (count as number)
    }
    blocks.set(key, block)
  }
  return blockLines(blocks)
}

/** Blocks as sorted lines, as deployment_counts stores them: 'slot:count' of the non-zero slots. */
function blockLines(blocks: Map<string, number[]>): string[] {
  return [...blocks]
    .map(
      ([key, block]) =>
        `${key} ${block.flatMap((count, slot) => (count > 0 ? [`${slot}:${count}`] : [])).join(',')}`,
    )
    .sort()
}

/** The read model's two tables as sorted lines, and the same recounted from the deployments. */
async function readModelAndRecount(sql: Sql) {
  const actualCells = await sql<{ line: string }[]>`
    select concat_ws(' ', workspace_id, application_id, environment_id, deployment_count, latest_id,
                     (extract(epoch from latest_deployed_at) * 1000000)::bigint,
                     latest_version, latest_commit_hash) as line
      from deployment_cells`
  // The blocks and the cells' held day and week counts, added up: the counts a reader sees.
  const actualCounts = await sql<{ key: string; counts: string }[]>`
    select concat_ws(' ', workspace_id, environment_id, application_id, bucket_days, block) as key, counts
      from deployment_counts
    union all
    select concat_ws(' ', workspace_id, environment_id, application_id, width, held >> 5),
           (held & 31) || ':' || count
      from deployment_cells,
           lateral (values (1, latest_day, latest_day_count), (7, latest_week, latest_week_count))
             as h(width, held, count)`
  return {
    actual: {
      cells: actualCells.map(({ line }) => line).sort(),
      counts: addedUp(actualCounts),
    },
    recount: recount(await deploymentRows(sql)),
  }
}

/** Asserts the read model exact, by verifyReadModel and by the recount. */
export async function expectExact(sql: Sql) {
  const checks = await verifyReadModel(sql)
  expect(checks.filter((check) => check.missing > 0 || check.unexpected > 0)).toEqual([])
  expect(readModelMatches(checks)).toBe(true)
  const { actual, recount } = await readModelAndRecount(sql)
  expect(actual).toEqual(recount)
}
