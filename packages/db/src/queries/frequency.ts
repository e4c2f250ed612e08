import { type DeploymentFrequency, instantFromMicros } from '@shiplog/schema'
import type { Sql, Tx } from '../client.ts'
import {
  BUCKET_DAYS,
  type BucketRange,
  type BucketUnit,
  blocksOf,
  bucketOfDay,
  bucketStart,
  dayOf,
  planWindow,
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
// bucket width, block), 32 buckets a row. Each row is cut to the range's buckets: printing the
// arrays is most of the query's time. `first` is the bucket number of a row's first count.
function rollupRows(tx: Tx, workspaceId: string, environmentId: string, range: BucketRange) {
  const { first, last } = blocksOf(range)
  return tx<{ applicationId: string; first: number; counts: number[] }[]>`
    select application_id::text as "applicationId",
           greatest(block * 32, ${range.from}::int) as first,
           counts[greatest(1, ${range.from}::int - block * 32 + 1) : least(32, ${range.to}::int - block * 32)] as counts
      from deployment_counts
     where workspace_id = ${workspaceId} and environment_id = ${environmentId}
       and bucket_days = ${range.bucketDays} and block between ${first} and ${last}`
}

// A part of one day: a range scan of deployments_by_environment (environment, deployedAt).
function partDayRows(tx: Tx, workspaceId: string, environmentId: string, from: bigint, to: bigint) {
  return tx<{ applicationId: string; count: number }[]>`
    select application_id::text as "applicationId", count(*)::int as count
      from deployments
     where workspace_id = ${workspaceId} and environment_id = ${environmentId}
       and deployed_at >= ${iso(from)}::text::timestamptz and deployed_at < ${iso(to)}::text::timestamptz
     group by application_id`
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
  const countsOf = new Map<string, number[]>()
  // An application's counts, indexed from the window's first bucket.
  const countsFor = (applicationId: string) => {
    let counts = countsOf.get(applicationId)
    if (!counts) {
      counts = new Array<number>(plan.bucketCount).fill(0)
      countsOf.set(applicationId, counts)
    }
    return counts
  }

  const names = await inSnapshot(sql, async (tx) => {
    const [environment] = await tx<{ id: string }[]>`
      select id::text from environments
       where workspace_id = ${workspaceId} and name_key = ${query.environmentKey}`
    if (!environment) return []
    const [partDays, rollups] = await Promise.all([
      Promise.all(
        plan.partDays.map(({ from, to }) => partDayRows(tx, workspaceId, environment.id, from, to)),
      ),
      Promise.all(plan.rollups.map((range) => rollupRows(tx, workspaceId, environment.id, range))),
    ])
    plan.partDays.forEach(({ from }, index) => {
      const at = bucketOfDay(unit, dayOf(from)) - plan.firstBucket
      for (const row of partDays[index] ?? []) {
        const counts = countsFor(row.applicationId)
        counts[at] = (counts[at] ?? 0) + row.count
      }
    })
    // Hundreds of thousands of counts at a time: one lookup per row, then plain array writes.
    plan.rollups.forEach((range, index) => {
      const sameWidth = range.bucketDays === BUCKET_DAYS[unit]
      for (const row of rollups[index] ?? []) {
        // Looked up at the first count: an application with none in the window is not listed.
        let counts: number[] | undefined
        for (let offset = 0; offset < row.counts.length; offset++) {
          const count = row.counts[offset] ?? 0
          if (count === 0) continue
          counts ??= countsFor(row.applicationId)
          const number = row.first + offset
          const at = (sameWidth ? number : bucketOfDay(unit, number)) - plan.firstBucket
          counts[at] = (counts[at] ?? 0) + count
        }
      }
    })
    if (countsOf.size === 0) return []
    return tx<{ id: string; app: string; repositoryFullName: string }[]>`
      select a.id::text, a.name as app, r.full_name as "repositoryFullName"
        from applications a join repositories r on r.id = a.repository_id
       where a.id = any(${[...countsOf.keys()]}::bigint[])
       order by r.full_name_key, a.name_key`
  })

  const applications = names.map(({ id, app, repositoryFullName }) => ({
    app,
    repositoryFullName,
    counts: countsOf.get(id) ?? [],
  }))
  const totals = new Array<number>(plan.bucketCount).fill(0)
  for (const { counts } of applications) {
    counts.forEach((count, index) => {
      totals[index] = (totals[index] ?? 0) + count
    })
  }
  return { buckets, applications, totals }
}
