import type { Fragment, Tx } from '../client.ts'
import { BUCKET_DAYS, type BucketUnit, isoOf } from './time-units.ts'
import type { BucketSpan, WindowPlan } from './window-plan.ts'

/** Which deployments the five keys are computed from, and over which window. */
export interface DoraQuery {
  workspaceId: string
  /** One environment, or several counted together (all production ones). */
  environmentKeys: string[]
  appKey?: string
  repositoryKey?: string
  /** Microseconds since the epoch; the window is [since, until). */
  since: bigint
  until: bigint
  bucket: BucketUnit
}

/** The window as the pieces of the facts statement write it in SQL. */
export interface WindowScope {
  tx: Tx
  /** The environments' ids, as a bigint[] parameter. */
  environmentIds: Fragment
  since: Fragment
  until: Fragment
  /** The buckets of the window in order (bucketSpans), as the statement's rows number them. */
  spans: BucketSpan[]
  /**
   * The group a row (an alias with deployed_at and application_id) is counted in: its bucket,
   * numbered as `spans` (0 for the window's first), unless a statement groups otherwise
   * (comparison.ts: by period and application).
   */
  groupOf(row: Fragment): Fragment
  /** Keeps the applications an app or repository filter selects; nothing without one. */
  ofSelected(column: Fragment): Fragment
  /** The deployment of that id, if in the window (and selected), by primary key. */
  inWindow(id: Fragment): Fragment
  /** The environment's incidents, as a relation. */
  incidents: Fragment
}

/** The scope of one read: the environments' window, and the applications a filter selected. */
export function windowScope(
  tx: Tx,
  read: {
    query: DoraQuery
    environmentIds: string[]
    selected: Set<string> | undefined
    plan: WindowPlan
    spans: BucketSpan[]
  },
): WindowScope {
  const { query, selected, plan } = read
  const environmentIds = tx`${read.environmentIds}::bigint[]`
  const at = (micros: bigint) => tx`${isoOf(micros)}::text::timestamptz`
  const since = at(query.since)
  const until = at(query.until)
  const ofSelected = (column: Fragment) =>
    selected ? tx`and ${column} = any(${[...selected]}::bigint[])` : tx``
  return {
    tx,
    environmentIds,
    since,
    until,
    spans: read.spans,
    groupOf: (row) =>
      tx`bucket_number(${row}.deployed_at, ${BUCKET_DAYS[query.bucket]}::smallint) - ${plan.firstBucket}::int`,
    ofSelected,
    // Behind `offset 0`: joined, Postgres may read the environment's whole window to hash it.
    inWindow: (id) => tx`
      select p.* from deployments p
       where p.id = ${id} and p.environment_id = any(${environmentIds}) and p.voided_at is null
         and p.deployed_at >= ${since} and p.deployed_at < ${until}
         ${ofSelected(tx`p.application_id`)}
      offset 0`,
    incidents: tx`(
      select * from incidents
       where workspace_id = ${query.workspaceId} and environment_id = any(${environmentIds}))`,
  }
}
