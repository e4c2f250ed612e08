import { instantFromMicros } from '@shiplog/schema'
import type { Sql, Tx } from '../client.ts'
import { countDeploymentsByApplication } from './frequency.ts'
import {
  BUCKET_DAYS,
  type BucketSpan,
  type BucketUnit,
  bucketSpans,
  planWindow,
  type WindowPlan,
} from './frequency-window.ts'
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

/** The figures of the window or of one of its buckets. */
export interface DoraRow {
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

/** The figures of a window, and of each of its buckets in order (`bucketSpans`). */
export interface DoraWindowFigures {
  window: DoraRow
  buckets: (BucketSpan & { figures: DoraRow })[]
}

/** What SQL answers per bucket (its index, -1 for the window); deployments come from the rollup. */
type FactsRow = Omit<DoraRow, 'deployments' | 'changes'> & { bucket: number; unchanged: number }

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
export async function doraFigures(
  sql: Sql,
  query: DoraQuery,
): Promise<DoraWindowFigures | undefined> {
  const plan = planWindow(query.bucket, query.since, query.until)
  const spans = bucketSpans(query.bucket, plan, query.since, query.until)
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
      factsFigures(tx, { query, environmentId: environment.id, selected, plan, spans }),
    ])
    const deployments = new Array<number>(plan.bucketCount).fill(0)
    for (const [applicationId, perBucket] of counts) {
      if (selected && !selected.has(applicationId)) continue
      perBucket.forEach((count, index) => {
        deployments[index] = (deployments[index] ?? 0) + count
      })
    }
    // SQL answers a row for the window and for every bucket.
    const rows = new Map(facts.map((row) => [row.bucket, row]))
    const figuresOf = (bucket: number, count: number): DoraRow => {
      const { bucket: _, unchanged, ...row } = rows.get(bucket) as FactsRow
      return { ...row, deployments: count, changes: count - unchanged }
    }
    return {
      window: figuresOf(
        -1,
        deployments.reduce((sum, count) => sum + count, 0),
      ),
      buckets: spans.map((span, index) => ({
        ...span,
        figures: figuresOf(index, deployments[index] ?? 0),
      })),
    }
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

/** Everything but the deployment counts, for the window and per bucket, in one statement. */
async function factsFigures(
  tx: Tx,
  read: {
    query: DoraQuery
    environmentId: string
    selected: Set<string> | undefined
    plan: WindowPlan
    spans: BucketSpan[]
  },
): Promise<FactsRow[]> {
  const { query, environmentId, selected, plan } = read
  // The window's percentiles sort a year's lead times (hundreds of thousands) in memory.
  await tx`set local work_mem = '64MB'`
  const isoOf = (micros: bigint) => instantFromMicros(micros).iso
  const at = (micros: bigint) => tx`${isoOf(micros)}::text::timestamptz`
  const since = at(query.since)
  const until = at(query.until)
  // Numbered as bucketSpans numbers them: 0 for the window's first bucket.
  const bucketOf = (column: ReturnType<typeof tx>) =>
    tx`bucket_number(${column}, ${BUCKET_DAYS[query.bucket]}::smallint) - ${plan.firstBucket}::int`
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
      select f.*, ${bucketOf(tx`f.deployed_at`)} as bucket
        from window_facts f where f.change_type <> 'forward' or f.reverts
    ),
    signals as (
      -- The deployment after each rollback's target.
      select failed.id as failed_id, r.deployed_at as recovered_at, r.deployment_id as fixer_id
        from facts r
        join deployments target on target.id = r.rollback_target
       cross join lateral deployment_after(target.application_id, target.environment_id,
                                           target.deployed_at, target.id) failed
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
      select ${bucketOf(tx`d.deployed_at`)} as bucket,
             coalesce((select f.change_type from deployment_dora_facts f where f.deployment_id = d.id),
                      'forward') in ('initial', 'forward') as change,
             extract(epoch from x.recovered_at - d.deployed_at)::float8 as recovery_seconds
        from (select failed_id, min(recovered_at) as recovered_at
                from signals where failed_id is not null group by failed_id) x
       cross join lateral (${inWindow(tx`x.failed_id`)}) d
    ),
    reworked as (
      select ${bucketOf(tx`d.deployed_at`)} as bucket
        from (select fixer_id from signals where fixer_id is not null
              union
              select deployment_id from facts where change_type = 'rollback') r
       cross join lateral (${inWindow(tx`r.fixer_id`)}) d
    ),
    -- The few deployments that are not changes, fail or fix, one row each.
    events as (
      select bucket, 'unchanged' as kind, null::boolean as change, null::float8 as recovery_seconds
        from facts where change_type in ('redeploy', 'rollback')
      union all
      select bucket, 'failed', change, recovery_seconds from failed
      union all
      select bucket, 'rework', null, null from reworked
    ),
    per_event as (
      select coalesce(bucket, -1) as bucket,
             (count(*) filter (where kind = 'unchanged'))::int as unchanged,
             (count(*) filter (where kind = 'failed' and change))::int as failed,
             (count(*) filter (where kind = 'failed' and recovery_seconds is not null))::int as recoveries,
             percentile_cont(0.5) within group (order by recovery_seconds)
               filter (where kind = 'failed' and recovery_seconds is not null) as recovery_median,
             (count(*) filter (where kind = 'failed' and recovery_seconds is null))::int as open,
             (count(*) filter (where kind = 'rework'))::int as rework
        from events group by grouping sets ((), (bucket))
    ),
    -- Lead times, unnested in the select list (a lateral unnest costs a function scan per row):
    -- once for the window, then bucket by bucket, each an index range of its own, as grouping
    -- the window's hundreds of thousands by bucket first cost a sort of them all.
    per_commit as (
      select -1 as bucket, count(*)::int as commits,
             percentile_cont(array[0.5, 0.9]) within group (order by seconds) as percentiles
        from (select unnest(lead_seconds) as seconds from window_facts) lead_times
      union all
      select (b.n - 1)::int, x.commits, x.percentiles
        from unnest(${read.spans.map((span) => isoOf(span.from))}::text[]::timestamptz[],
                    ${read.spans.map((span) => isoOf(span.to))}::text[]::timestamptz[])
             with ordinality as b(from_at, to_at, n)
       cross join lateral (
         select count(*)::int as commits,
                percentile_cont(array[0.5, 0.9]) within group (order by seconds) as percentiles
           from (select unnest(f.lead_seconds) as seconds from window_facts f
                  where f.deployed_at >= b.from_at and f.deployed_at < b.to_at) lead_times) x
    )
    -- Seconds to the millisecond: percentiles interpolate in binary floating point.
    select c.bucket, c.commits as "leadCommits",
           round(c.percentiles[1]::numeric, 3)::float8 as "leadMedianSeconds",
           round(c.percentiles[2]::numeric, 3)::float8 as "leadP90Seconds",
           coalesce(e.unchanged, 0) as unchanged, coalesce(e.failed, 0) as failed,
           coalesce(e.recoveries, 0) as recoveries,
           round(e.recovery_median::numeric, 3)::float8 as "recoveryMedianSeconds",
           coalesce(e.open, 0) as open, coalesce(e.rework, 0) as rework
      from per_commit c left join per_event e on e.bucket = c.bucket`
}
