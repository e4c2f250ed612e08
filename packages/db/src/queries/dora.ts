import { instantFromMicros } from '@shiplog/schema'
import type { Sql, Tx } from '../client.ts'
import { countDeploymentsByApplication } from './frequency.ts'
import { type BucketUnit, bucketStart, planWindow } from './frequency-window.ts'
import { inSnapshot } from './snapshot.ts'

/** Which deployments the five keys are computed from, and over which window. */
export interface DoraQuery {
  workspaceId: string
  environmentKey: string
  appKey?: string
  repositoryKey?: string
  /** Microseconds since the epoch; the window is [since, until). */
  since: bigint
  until: bigint
  bucket: BucketUnit
}

/** The figures of the window (`start` null) or of one bucket. */
export interface DoraRow {
  start: string | null
  deployments: number
  leadCommits: number
  leadMedianSeconds: number | null
  leadP90Seconds: number | null
  changes: number
  failed: number
  recoveries: number
  recoveryMedianSeconds: number | null
  open: number
  rework: number
}

/** What SQL answers per bucket (`start` null for the window); deployments come from the rollup. */
type FactsRow = Omit<DoraRow, 'deployments' | 'changes'> & { unchanged: number }

/**
 * The five keys of an environment's window, and per bucket. Deployments are counted by the read
 * model's rollup (deployment_counts, as the frequency endpoint counts them); everything else is
 * computed in SQL from the stored facts of the window (deployment_dora_facts, migration 0014:
 * change type, rollback target, reverting commits, lead times of first deliveries) and the few
 * failure signals that point back into it:
 * - a rollback of the window returns to its target: the first deployment after that target
 *   failed, recovered at the rollback;
 * - a deployment of the window whose commit reverts another: the first deployment of the
 *   application to deliver the reverted commit failed, recovered at the reverting deployment;
 * - an incident names a deployment of the window as its cause: failed, recovered when the
 *   incident is resolved.
 * A deployment fails once, recovered at the earliest of its recoveries. Signals come only from
 * deployments before `until`, as the history the keys see ends there. Rework: rollbacks,
 * deployments whose commits revert a failed one, and deployments that fixed an incident
 * (notify --fixes). No deployment of the window is read from the deployments table: the
 * failures and fixes are probed by primary key, a few hundred a year.
 */
export async function doraFigures(sql: Sql, query: DoraQuery): Promise<DoraRow[] | undefined> {
  const plan = planWindow(query.bucket, query.since, query.until)
  return inSnapshot(sql, async (tx) => {
    const [environment] = await tx<{ id: string }[]>`
      select id::text from environments
       where workspace_id = ${query.workspaceId} and name_key = ${query.environmentKey}`
    if (!environment) return undefined
    // An app or repository filter, resolved once to the ids both reads below keep.
    const selected =
      query.appKey !== undefined || query.repositoryKey !== undefined
        ? await selectedApplications(tx, query)
        : undefined
    const [counts, facts] = await Promise.all([
      countDeploymentsByApplication(
        tx,
        { workspaceId: query.workspaceId, environmentId: environment.id, unit: query.bucket },
        plan,
      ),
      factsFigures(tx, query, environment.id, selected),
    ])
    const deployments = new Array<number>(plan.bucketCount).fill(0)
    for (const [applicationId, perBucket] of counts) {
      if (selected && !selected.has(applicationId)) continue
      perBucket.forEach((count, index) => {
        deployments[index] = (deployments[index] ?? 0) + count
      })
    }
    const factsOf = new Map(facts.map(({ unchanged, ...row }) => [row.start, { unchanged, row }]))
    const rowOf = (start: string | null, count: number): DoraRow => {
      const known = factsOf.get(start)
      return {
        leadCommits: 0,
        leadMedianSeconds: null,
        leadP90Seconds: null,
        failed: 0,
        recoveries: 0,
        recoveryMedianSeconds: null,
        open: 0,
        rework: 0,
        ...known?.row,
        start,
        deployments: count,
        changes: count - (known?.unchanged ?? 0),
      }
    }
    const total = deployments.reduce((sum, count) => sum + count, 0)
    return [
      rowOf(null, total),
      ...deployments.map((count, index) =>
        rowOf(instantFromMicros(bucketStart(query.bucket, plan.firstBucket + index)).iso, count),
      ),
    ]
  })
}

/** The ids of the applications an app or repository filter selects. */
async function selectedApplications(tx: Tx, query: DoraQuery): Promise<Set<string>> {
  const rows = await tx<{ id: string }[]>`
    select a.id::text from applications a join repositories r on r.id = a.repository_id
     where a.workspace_id = ${query.workspaceId}
       ${query.appKey === undefined ? tx`` : tx`and a.name_key = ${query.appKey}`}
       ${query.repositoryKey === undefined ? tx`` : tx`and r.full_name_key = ${query.repositoryKey}`}`
  return new Set(rows.map(({ id }) => id))
}

/** Everything but the deployment counts, per bucket and for the window, in one statement. */
async function factsFigures(
  tx: Tx,
  query: DoraQuery,
  environmentId: string,
  selected: Set<string> | undefined,
): Promise<FactsRow[]> {
  // The percentiles sort a year's lead times (hundreds of thousands) in memory.
  await tx`set local work_mem = '64MB'`
  const since = tx`${instantFromMicros(query.since).iso}::text::timestamptz`
  const until = tx`${instantFromMicros(query.until).iso}::text::timestamptz`
  const bucketOf = (column: ReturnType<typeof tx>) =>
    tx`date_trunc(${query.bucket}, ${column} at time zone 'UTC') at time zone 'UTC'`
  const ofSelected = (column: ReturnType<typeof tx>) =>
    selected ? tx`and ${column} = any(${[...selected]}::bigint[])` : tx``
  // A deployment of the window, by primary key behind `offset 0`: joined, Postgres may read the
  // environment's whole window to hash it.
  const inWindow = (id: ReturnType<typeof tx>) => tx`
    select p.* from deployments p
     where p.id = ${id} and p.environment_id = ${environmentId} and p.voided_at is null
       and p.deployed_at >= ${since} and p.deployed_at < ${until}
       ${ofSelected(tx`p.application_id`)}
    offset 0`
  // The window's facts: most from an index-only scan of deployment_dora_facts_window, the rows
  // with long lead-time lists from the heap.
  // The bound is migration 0015's, written out: as a parameter, a generic plan could not use the
  // partial indexes.
  const windowFacts = (bound: ReturnType<typeof tx>) => tx`
    select f.deployment_id, f.application_id, f.environment_id, f.deployed_at, f.change_type,
           f.rollback_target, f.reverts, f.lead_seconds
      from deployment_dora_facts f
     where f.environment_id = ${environmentId}
       and f.deployed_at >= ${since} and f.deployed_at < ${until}
       and ${bound}
       ${ofSelected(tx`f.application_id`)}`
  return tx<FactsRow[]>`
    with window_facts as not materialized (
      ${windowFacts(tx`cardinality(f.lead_seconds) <= 200`)}
      union all
      ${windowFacts(tx`cardinality(f.lead_seconds) > 200`)}
    ),
    -- The few rows that say more than "a forward change": the window's signals start there.
    facts as materialized (
      select f.*, ${bucketOf(tx`f.deployed_at`)} as bucket_start
        from window_facts f where f.change_type <> 'forward' or f.reverts
    ),
    signals as (
      -- The deployment after each rollback's target (deployments_unique_delivery).
      select failed.id as failed_id, r.deployed_at as recovered_at, r.deployment_id as fixer_id
        from facts r
        join deployments target on target.id = r.rollback_target
       cross join lateral (
         select n.id from deployments n
          where n.application_id = target.application_id and n.environment_id = target.environment_id
            and n.voided_at is null and n.deployed_at >= target.deployed_at
            and (n.deployed_at, n.id) > (target.deployed_at, target.id)
          order by n.deployed_at, n.id
          limit 1) failed
       where r.change_type = 'rollback'
      union all
      -- The first delivery of each commit that a commit of the window's deployments reverts,
      -- from their own lists and those of their repeated deliveries.
      select first_delivery.id, fixer.deployed_at, fixer.deployment_id
        from facts fixer
       cross join lateral (
         select unnest(c.reverts) as sha from deployment_commits c
          where c.deployment_id = fixer.deployment_id and cardinality(c.reverts) > 0
         union
         select unnest(c.reverts) from deployment_aliases a
           join deployment_commits c on c.deployment_id = a.id
          where a.deployment_id = fixer.deployment_id and cardinality(c.reverts) > 0) reverted
       cross join lateral (
         select e.id from deployment_commits ec
           cross join lateral (select * from deployments probed where probed.id = canonical_deployment(ec.deployment_id) offset 0) e
          where ec.sha = reverted.sha
            and e.application_id = fixer.application_id and e.environment_id = fixer.environment_id
            and e.voided_at is null
            and (e.deployed_at, e.id) < (fixer.deployed_at, fixer.deployment_id)
          order by e.deployed_at, e.id
          limit 1) first_delivery
       where fixer.reverts
      union all
      select i.cause_deployment_id, i.resolved_at, null
        from incidents i
       where i.workspace_id = ${query.workspaceId} and i.environment_id = ${environmentId}
         and i.cause_deployment_id is not null
      union all
      -- A deployment that fixed an incident (notify --fixes) is rework, whatever the cause.
      select null, null, i.fixed_by_deployment_id
        from incidents i
       where i.workspace_id = ${query.workspaceId} and i.environment_id = ${environmentId}
         and i.fixed_by_deployment_id is not null
    ),
    failed as (
      select ${bucketOf(tx`d.deployed_at`)} as bucket_start,
             coalesce((select f.change_type from deployment_dora_facts f where f.deployment_id = d.id),
                      'forward') in ('initial', 'forward') as change,
             extract(epoch from x.recovered_at - d.deployed_at)::float8 as recovery_seconds
        from (select failed_id, min(recovered_at) as recovered_at
                from signals where failed_id is not null group by failed_id) x
       cross join lateral (${inWindow(tx`x.failed_id`)}) d
    ),
    reworked as (
      select ${bucketOf(tx`d.deployed_at`)} as bucket_start
        from (select fixer_id from signals where fixer_id is not null
              union
              select deployment_id from facts where change_type = 'rollback') r
       cross join lateral (${inWindow(tx`r.fixer_id`)}) d
    ),
    -- The few deployments that are not changes, fail or fix, one row each.
    events as (
      select bucket_start, 'unchanged' as kind, null::boolean as change, null::float8 as recovery_seconds
        from facts where change_type in ('redeploy', 'rollback')
      union all
      select bucket_start, 'failed', change, recovery_seconds from failed
      union all
      select bucket_start, 'rework', null, null from reworked
    ),
    per_event as (
      select coalesce(iso_utc(bucket_start), 'window') as key,
             (count(*) filter (where kind = 'unchanged'))::int as unchanged,
             (count(*) filter (where kind = 'failed' and change))::int as failed,
             (count(*) filter (where kind = 'failed' and recovery_seconds is not null))::int as recoveries,
             percentile_cont(0.5) within group (order by recovery_seconds)
               filter (where kind = 'failed' and recovery_seconds is not null) as recovery_median,
             (count(*) filter (where kind = 'failed' and recovery_seconds is null))::int as open,
             (count(*) filter (where kind = 'rework'))::int as rework
        from events group by grouping sets ((), (bucket_start))
    ),
    -- Lead times unnested in the select list: a lateral unnest costs a function scan per row.
    lead_times as (
      select ${bucketOf(tx`deployed_at`)} as bucket_start, unnest(lead_seconds) as seconds
        from window_facts
    ),
    per_commit as (
      select coalesce(iso_utc(bucket_start), 'window') as key, count(*)::int as commits,
             percentile_cont(array[0.5, 0.9]) within group (order by seconds) as percentiles
        from lead_times group by grouping sets ((), (bucket_start))
    )
    -- Seconds to the millisecond: percentiles interpolate in binary floating point.
    select nullif(coalesce(e.key, c.key), 'window') as start,
           coalesce(c.commits, 0) as "leadCommits",
           round(c.percentiles[1]::numeric, 3)::float8 as "leadMedianSeconds",
           round(c.percentiles[2]::numeric, 3)::float8 as "leadP90Seconds",
           coalesce(e.unchanged, 0) as unchanged, coalesce(e.failed, 0) as failed,
           coalesce(e.recoveries, 0) as recoveries,
           round(e.recovery_median::numeric, 3)::float8 as "recoveryMedianSeconds",
           coalesce(e.open, 0) as open, coalesce(e.rework, 0) as rework
      from per_event e full join per_commit c on c.key = e.key`
}
