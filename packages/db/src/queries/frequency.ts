import { type DeploymentFrequency, instantFromMicros } from '@shiplog/schema'
import type { Sql, Tx } from '../client.ts'
import { applicationsInOrder } from './application-order.ts'
import { addRollupRows } from './frequency-rollup.ts'
import {
  BUCKET_DAYS,
  type BucketRange,
  type BucketUnit,
  blocksOf,
  bucketOfDay,
  bucketStart,
  dayOf,
  planWindow,
  type WindowPlan,
} from './frequency-window.ts'
import { inSnapshot } from './snapshot.ts'

/** Buckets, per-application counts and totals of `deploymentFrequency`. */
export type FrequencyCounts = Pick<DeploymentFrequency, 'buckets' | 'applications' | 'totals'>

/** The window, in microseconds since the epoch: `since` included, `until` not. */
export interface FrequencyQuery {
  workspaceId: string
  environmentKey: string
  bucket: BucketUnit
  since: bigint
  until: bigint
}

const iso = (micros: bigint) => instantFromMicros(micros).iso

// Whole days and weeks: a range scan of deployment_counts' primary key (workspace, environment,
// bucket width, block), 32 buckets a row, stored as text (migration 0005) and joined into one
// text that frequency-rollup.ts reads: the server copies bytes, and the client parses one value
// instead of thousands of rows.
async function rollupRows(tx: Tx, workspaceId: string, environmentId: string, range: BucketRange) {
  const { first, last } = blocksOf(range)
  const [row] = await tx<{ rows: string | null }[]>`
    select string_agg(application_id || ' ' || block || ' ' || counts, ' ') as rows
      from deployment_counts
     where workspace_id = ${workspaceId} and environment_id = ${environmentId}
       and bucket_days = ${range.bucketDays} and block between ${first} and ${last}`
  return row?.rows ?? null
}

// A part of one day: a range scan of deployments_by_environment (environment, deployedAt).
function partDayRows(tx: Tx, workspaceId: string, environmentId: string, from: bigint, to: bigint) {
  return tx<{ applicationId: string; count: number }[]>`
    select application_id::text as "applicationId", count(*)::int as count
      from deployments
     where workspace_id = ${workspaceId} and environment_id = ${environmentId}
       and voided_at is null
       and deployed_at >= ${iso(from)}::text::timestamptz and deployed_at < ${iso(to)}::text::timestamptz
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
 * Counts recorded deployments into the environment per UTC day or ISO week (from Monday), from
 * the bucket holding `since` up to `until` (exclusive): every bucket listed, counts zero-filled
 * here, and every application that deployed there at least once in the window, by repository
 * then name. Read from the rollup in one snapshot; only the window's part-days count rows.
 */
export async function deploymentFrequency(
  sql: Sql,
  query: FrequencyQuery,
): Promise<FrequencyCounts> {
  const { bucket: unit, workspaceId } = query
  const plan = planWindow(unit, query.since, query.until)
  const buckets = Array.from({ length: plan.bucketCount }, (_, index) =>
    iso(bucketStart(unit, plan.firstBucket + index)),
  )
  let countsOf = new Map<string, number[]>()
  const names = await inSnapshot(sql, async (tx) => {
    const [environment] = await tx<{ id: string }[]>`
      select id::text from environments
       where workspace_id = ${workspaceId} and name_key = ${query.environmentKey}`
    if (!environment) return []
    countsOf = await countDeploymentsByApplication(
      tx,
      { workspaceId, environmentId: environment.id, unit },
      plan,
    )
    if (countsOf.size === 0) return []
    return applicationsInOrder(sql, tx, workspaceId, countsOf.keys())
  })

  const totals = new Array<number>(plan.bucketCount).fill(0)
  const applications = names.map(({ id, app, repositoryFullName }) => {
    const counts = countsOf.get(id) ?? totals.map(() => 0)
    for (let index = 0; index < counts.length; index++) {
      totals[index] = (totals[index] ?? 0) + (counts[index] ?? 0)
    }
    return { app, repositoryFullName, counts }
  })
  return { buckets, applications, totals }
}
