import type { Tx } from '../client.ts'
import {
  BUCKET_DAYS,
  type BucketRange,
  type BucketUnit,
  blocksOf,
  bucketOfDay,
  dayOf,
  isoOf,
  type WindowPlan,
} from './time-units.ts'

/**
 * The ids of the workspace's environments of these name keys (in no order), or undefined when it
 * lacks one of them.
 */
export async function environmentIdsOf(
  tx: Tx,
  workspaceId: string,
  environmentKeys: string[],
): Promise<string[] | undefined> {
  const environments = await tx<{ id: string }[]>`
    select id::text from environments
     where workspace_id = ${workspaceId} and name_key = any(${environmentKeys}::text[])`
  if (environments.length < new Set(environmentKeys).size) return undefined
  return environments.map(({ id }) => id)
}

// Whole days and weeks: a range scan of deployment_counts' primary key (workspace, environment,
// bucket width, block), 32 buckets a row, stored as text (migration 0005) and joined into one
// text that addRollupRows (below) reads: the server copies bytes, and the client parses one value
// instead of thousands of rows. The day and week of each stream's latest deployment are held by
// its cell (migration 0029), read by deployment_cells_by_environment as one-bucket blocks beside.
async function rollupRows(tx: Tx, workspaceId: string, environmentId: string, range: BucketRange) {
  const { first, last } = blocksOf(range)
  const [row] = await tx<{ rows: string | null }[]>`
    select string_agg(application_id || ' ' || block || ' ' || counts, ' ') as rows
      from (select application_id, block, counts
              from deployment_counts
             where workspace_id = ${workspaceId} and environment_id = ${environmentId}
               and bucket_days = ${range.bucketDays} and block between ${first} and ${last}
            union all
            select application_id, held.number >> 5, (held.number & 31) || ':' || held.count
              from deployment_cells c
             cross join lateral (
               select case ${range.bucketDays}::smallint when 1 then c.latest_day else c.latest_week end as number,
                      case ${range.bucketDays}::smallint when 1 then c.latest_day_count else c.latest_week_count end as count
             ) held
             where c.workspace_id = ${workspaceId} and c.environment_id = ${environmentId}
               and held.count > 0 and held.number >> 5 between ${first} and ${last}) blocks`
  return row?.rows ?? null
}

// A part of one day: a range scan of deployments_by_environment (environment, deployedAt).
function partDayRows(tx: Tx, workspaceId: string, environmentId: string, from: bigint, to: bigint) {
  return tx<{ applicationId: string; count: number }[]>`
    select application_id::text as "applicationId", count(*)::int as count
      from deployments
     where workspace_id = ${workspaceId} and environment_id = ${environmentId}
       and voided_at is null
       and deployed_at >= ${isoOf(from)}::text::timestamptz and deployed_at < ${isoOf(to)}::text::timestamptz
     group by application_id`
}

/**
 * The recorded deployments into the environment per application, indexed from the plan's first
 * bucket, in the caller's snapshot: whole days and weeks from the rollup, part-days from the
 * deployments. An application without deployments in the window has no entry.
 */
export async function countDeploymentsByApplication(
  tx: Tx,
  scope: { workspaceId: string; environmentId: string; unit: BucketUnit },
  plan: WindowPlan,
): Promise<Map<string, number[]>> {
  const { workspaceId, environmentId, unit } = scope
  const countsOf = new Map<string, number[]>()
  const countsFor = (applicationId: string) => {
    let counts = countsOf.get(applicationId)
    if (!counts) {
      counts = new Array<number>(plan.bucketCount).fill(0)
      countsOf.set(applicationId, counts)
    }
    return counts
  }
  const [partDays, rollups] = await Promise.all([
    Promise.all(
      plan.partDays.map(({ from, to }) => partDayRows(tx, workspaceId, environmentId, from, to)),
    ),
    Promise.all(plan.rollups.map((range) => rollupRows(tx, workspaceId, environmentId, range))),
  ])
  plan.partDays.forEach(({ from }, index) => {
    const at = bucketOfDay(unit, dayOf(from)) - plan.firstBucket
    for (const row of partDays[index] ?? []) {
      const counts = countsFor(row.applicationId)
      counts[at] = (counts[at] ?? 0) + row.count
    }
  })
  plan.rollups.forEach((range, index) => {
    const indexOf =
      range.bucketDays === BUCKET_DAYS[unit]
        ? (number: number) => number - plan.firstBucket
        : (day: number) => bucketOfDay(unit, day) - plan.firstBucket
    addRollupRows(rollups[index] ?? null, range, { countsFor, indexOf })
  })
  return countsOf
}

/**
 * The recorded deployments of a planned window into several environments, added up per
 * application and bucket, in the caller's snapshot: each environment read as
 * countDeploymentsByApplication reads one (the rollup's key leads with it). With a filter's
 * applications (`selected`), the others are left out.
 */
export async function countWindowDeployments(
  tx: Tx,
  scope: { workspaceId: string; environmentIds: string[]; selected: Set<string> | undefined },
  unit: BucketUnit,
  plan: WindowPlan,
): Promise<Map<string, number[]>> {
  const perEnvironment = await Promise.all(
    scope.environmentIds.map((environmentId) =>
      countDeploymentsByApplication(
        tx,
        { workspaceId: scope.workspaceId, environmentId, unit },
        plan,
      ),
    ),
  )
  const countsOf = new Map<string, number[]>()
  for (const [applicationId, perBucket] of perEnvironment.flatMap((counts) => [...counts])) {
    if (scope.selected && !scope.selected.has(applicationId)) continue
    const counts = countsOf.get(applicationId)
    if (!counts) {
      countsOf.set(applicationId, perBucket)
      continue
    }
    for (let index = 0; index < perBucket.length; index++) {
      counts[index] = (counts[index] ?? 0) + (perBucket[index] ?? 0)
    }
  }
  return countsOf
}

// Reading `deployment_counts` rows as rollupRows receives them: the rows of one range
// joined into one text by Postgres, 'application block slot:count,slot:count…' each (migration
// 0005), separated by spaces. A 400-day window of a busy workspace holds 26,000 rows; one text and
// one pass over its characters cost a fraction of what as many result rows would.

const SPACE = 32
const COLON = 58
const MINUS = 45
const ZERO = 48
const NINE = 57
const COMMA = 44

/** Where the counts of a range go: per application, indexed from the window's first bucket. */
interface RollupTarget {
  /** The array for an application's counts; made on first use. */
  countsFor(applicationId: string): number[]
  /** The array index of a bucket number of the range's width (one inside the window). */
  indexOf(number: number): number
}

/**
 * Adds every count of `rows` (see above; `null` when no row matched) whose bucket number lies in
 * `range` to its application's counts. An application whose rows hold no count inside the window
 * is never asked for.
 */
function addRollupRows(rows: string | null, range: BucketRange, target: RollupTarget) {
  if (rows === null) return
  const end = rows.length
  let at = 0
  while (at < end) {
    const idStart = at
    while (rows.charCodeAt(at) !== SPACE) at++
    const applicationId = rows.slice(idStart, at)
    const negative = rows.charCodeAt(++at) === MINUS
    if (negative) at++
    let block = 0
    for (let code = rows.charCodeAt(at); code !== SPACE; code = rows.charCodeAt(++at)) {
      block = block * 10 + code - ZERO
    }
    const first = (negative ? -block : block) * 32
    let counts: number[] | undefined
    // \`at\` is on the space before the first pair, then on the comma before each next one; after
    // the last it is on the space before the next row, or past the end (where charCodeAt is NaN).
    let code: number
    do {
      let slot = 0
      for (code = rows.charCodeAt(++at); code !== COLON; code = rows.charCodeAt(++at)) {
        slot = slot * 10 + code - ZERO
      }
      let count = 0
      for (
        code = rows.charCodeAt(++at);
        code >= ZERO && code <= NINE;
        code = rows.charCodeAt(++at)
      ) {
        count = count * 10 + code - ZERO
      }
      const number = first + slot
      if (number >= range.from && number < range.to) {
        counts ??= target.countsFor(applicationId)
        const index = target.indexOf(number)
        counts[index] = (counts[index] ?? 0) + count
      }
    } while (code === COMMA)
    at++
  }
}
