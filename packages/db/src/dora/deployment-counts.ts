import type { Tx } from '../client.ts'
import { addRollupRows } from './rollup-text.ts'
import { BUCKET_DAYS, type BucketUnit, bucketOfDay, dayOf, isoOf } from './time-units.ts'
import { type BucketRange, blocksOf, type WindowPlan } from './window-plan.ts'

/** The id of the workspace's environment of that name key, or undefined when it has none. */
export async function environmentIdOf(
  tx: Tx,
  workspaceId: string,
  environmentKey: string,
): Promise<string | undefined> {
  const [environment] = await tx<{ id: string }[]>`
    select id::text from environments
     where workspace_id = ${workspaceId} and name_key = ${environmentKey}`
  return environment?.id
}

// Whole days and weeks: a range scan of deployment_counts' primary key (workspace, environment,
// bucket width, block), 32 buckets a row, stored as text (migration 0005) and joined into one
// text that rollup-text.ts reads: the server copies bytes, and the client parses one value
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
