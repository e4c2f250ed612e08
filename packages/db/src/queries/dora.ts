import type { Sql } from '../client.ts'
import { inSnapshot } from './snapshot.ts'

/** Which deployments the five keys are computed from, and over which window. */
export interface DoraQuery {
  workspaceId: string
  environmentKey: string
  appKey?: string
  repositoryKey?: string
  /** RFC 3339; the window is [since, until). */
  since: string
  until: string
  bucket: 'day' | 'week'
}

/** The figures of the window (`start` null) or of one bucket, as SQL computed them. */
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

/**
 * The five keys, in SQL, from the stored facts of the environment's deployments in the window
 * (deployment_dora_facts, migration 0014: change type, rollback target, reverting commits, lead
 * times of first deliveries) and the few failure signals that point back into it:
 * - a rollback of the window returns to its target: the first deployment after that target
 *   failed, recovered at the rollback;
 * - a deployment of the window whose commit reverts another: the first deployment of the
 *   application to deliver the reverted commit failed, recovered at the reverting deployment;
 * - an incident names a deployment of the window as its cause: failed, recovered when the
 *   incident is resolved.
 * A deployment fails once, recovered at the earliest of its recoveries. Signals come only from
 * deployments before `until`, as the history the keys see ends there. Rework: rollbacks,
 * deployments whose commits revert a failed one, and deployments that fixed an incident
 * (notify --fixes). Figures for the window and for each bucket come from one grouping.
 */
export async function doraFigures(sql: Sql, query: DoraQuery): Promise<DoraRow[] | undefined> {
  const bucket = query.bucket === 'week' ? 'week' : 'day'
  return inSnapshot(sql, async (tx) => {
    const [environment] = await tx<{ id: string }[]>`
      select id::text from environments
       where workspace_id = ${query.workspaceId} and name_key = ${query.environmentKey}`
    if (!environment) return undefined
    // The percentiles sort a year's lead times (hundreds of thousands) in memory.
    await tx`set local work_mem = '64MB'`
    const filtered = query.appKey !== undefined || query.repositoryKey !== undefined
    const applications = tx`
      select a.id from applications a join repositories r on r.id = a.repository_id
       where a.workspace_id = ${query.workspaceId}
         ${query.appKey === undefined ? tx`` : tx`and a.name_key = ${query.appKey}`}
         ${query.repositoryKey === undefined ? tx`` : tx`and r.full_name_key = ${query.repositoryKey}`}`
    const since = tx`${query.since}::text::timestamptz`
    const until = tx`${query.until}::text::timestamptz`
    const bucketOf = (column: ReturnType<typeof tx>) =>
      tx`date_trunc(${bucket}, ${column} at time zone 'UTC') at time zone 'UTC'`
    return tx<DoraRow[]>`
      with deployed as (
        select d.id, d.application_id, d.deployed_at, ${bucketOf(tx`d.deployed_at`)} as bucket_start
          from deployments d
         where d.environment_id = ${environment.id} and d.voided_at is null
           and d.deployed_at >= ${since} and d.deployed_at < ${until}
           ${filtered ? tx`and d.application_id in (${applications})` : tx``}
      ),
      facts as materialized (
        select f.*, ${bucketOf(tx`f.deployed_at`)} as bucket_start
          from deployment_dora_facts f
         where f.environment_id = ${environment.id}
           and f.deployed_at >= ${since} and f.deployed_at < ${until}
           ${filtered ? tx`and f.application_id in (${applications})` : tx``}
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
        -- The first delivery of each commit a deployment of the window reverts.
        select first_delivery.id, fixer.deployed_at, fixer.deployment_id
          from facts fixer
         cross join lateral delivered_commits(fixer.deployment_id) c
          join deployment_commits reverting on reverting.sha = c.sha
           and canonical_deployment(reverting.deployment_id) = fixer.deployment_id
         cross join lateral unnest(reverting.reverts) as reverted(sha)
         cross join lateral (
           select e.id from deployment_commits ec
             cross join lateral (select * from deployments probed where probed.id = canonical_deployment(ec.deployment_id) offset 0) e
            where ec.sha = reverted.sha
              and e.application_id = fixer.application_id and e.environment_id = fixer.environment_id
              and e.voided_at is null
              and (e.deployed_at, e.id) < (fixer.deployed_at, fixer.deployment_id)
            order by e.deployed_at, e.id
            limit 1) first_delivery
         where fixer.reverts and c.reverting
        union all
        select i.cause_deployment_id, i.resolved_at, null
          from incidents i join deployed d on d.id = i.cause_deployment_id
         where i.workspace_id = ${query.workspaceId} and i.environment_id = ${environment.id}
        union all
        -- A deployment that fixed an incident (notify --fixes) is rework, whatever the cause.
        select null, null, i.fixed_by_deployment_id
          from incidents i join deployed d on d.id = i.fixed_by_deployment_id
         where i.workspace_id = ${query.workspaceId} and i.environment_id = ${environment.id}
      ),
      failures as (
        select failed_id as id, min(recovered_at) as recovered_at
          from signals where failed_id is not null group by failed_id
      ),
      fixers as (select distinct fixer_id as id from signals where fixer_id is not null),
      in_window as (
        select d.bucket_start, d.deployed_at, coalesce(f.change_type, 'forward') as change_type,
               x.id is not null as failed, x.recovered_at,
               (f.change_type = 'rollback' or r.id is not null) as rework
          from deployed d
          left join facts f on f.deployment_id = d.id and f.change_type <> 'forward'
          left join failures x on x.id = d.id
          left join fixers r on r.id = d.id
      ),
      lead_times as (
        select f.bucket_start, seconds
          from facts f cross join lateral unnest(f.lead_seconds) as seconds
      ),
      per_deployment as (
        select grouping(bucket_start) = 1 as whole, bucket_start,
               count(*)::int as deployments,
               (count(*) filter (where change_type in ('initial', 'forward')))::int as changes,
               (count(*) filter (where failed and change_type in ('initial', 'forward')))::int as failed,
               (count(*) filter (where failed and recovered_at is not null))::int as recoveries,
               percentile_cont(0.5) within group (order by extract(epoch from recovered_at - deployed_at)::float8)
                 filter (where failed and recovered_at is not null) as recovery_median,
               (count(*) filter (where failed and recovered_at is null))::int as open,
               (count(*) filter (where rework))::int as rework
          from in_window group by grouping sets ((), (bucket_start))
      ),
      per_commit as (
        select grouping(bucket_start) = 1 as whole, bucket_start, count(*)::int as commits,
               percentile_cont(array[0.5, 0.9]) within group (order by seconds) as percentiles
          from lead_times group by grouping sets ((), (bucket_start))
      )
      -- Seconds to the millisecond: percentiles interpolate in binary floating point.
      select case when d.whole then null else iso_utc(d.bucket_start) end as start,
             d.deployments, coalesce(c.commits, 0) as "leadCommits",
             round(c.percentiles[1]::numeric, 3)::float8 as "leadMedianSeconds",
             round(c.percentiles[2]::numeric, 3)::float8 as "leadP90Seconds",
             d.changes, d.failed, d.recoveries,
             round(d.recovery_median::numeric, 3)::float8 as "recoveryMedianSeconds",
             d.open, d.rework
        from per_deployment d
        left join per_commit c on c.whole = d.whole and c.bucket_start is not distinct from d.bucket_start
       order by d.whole desc, d.bucket_start`
  })
}
