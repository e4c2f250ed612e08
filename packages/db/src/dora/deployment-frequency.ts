import type { DeploymentFrequency } from '@shiplog/schema'
import type { Sql } from '../client.ts'
import { applicationsInOrder } from '../read/application-order.ts'
import { inSnapshot } from '../read/snapshot.ts'
import { countDeploymentsByApplication, environmentIdsOf } from './deployment-counts.ts'
import { type BucketUnit, bucketStart, isoOf, planWindow } from './time-units.ts'

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
    isoOf(bucketStart(unit, plan.firstBucket + index)),
  )
  let countsOf = new Map<string, number[]>()
  const names = await inSnapshot(sql, async (tx) => {
    const [environmentId] = (await environmentIdsOf(tx, workspaceId, [query.environmentKey])) ?? []
    if (environmentId === undefined) return []
    countsOf = await countDeploymentsByApplication(tx, { workspaceId, environmentId, unit }, plan)
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
