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
 * The five keys, in SQL, from the environment's deployments up to `until` (the history is
 * needed: a change's type and a failure's cause may lie before the window):
 * - change type per deployment, by application in (deployedAt, id) order, as change_type()
 *   defines it;
 * - a deployment is failed when a rollback returns to a target and it was the first after that
 *   target (recovered at the rollback), when a later deployment's commit reverts a commit it was
 *   the first to deliver (recovered at that deployment), or when an incident names it as its
 *   cause (recovered when it is resolved); once, recovered at the earliest of its recoveries;
 * - lead time: for each commit a deployment of the window delivered first (per application),
 *   unless it is an initial deployment, its deployedAt minus the commit's committer time;
 * - rework: rollbacks, deployments whose commits revert a failed one, and deployments that
 *   fixed an incident (notify --fixes).
 * Figures for the window and for each bucket come from one grouping.
 */
export async function doraFigures(sql: Sql, query: DoraQuery): Promise<DoraRow[] | undefined> {
  const bucket = query.bucket === 'week' ? 'week' : 'day'
  return inSnapshot(sql, async (tx) => {
    const [environment] = await tx<{ id: string }[]>`
      select id::text from environments
       where workspace_id = ${query.workspaceId} and name_key = ${query.environmentKey}`
    if (!environment) return undefined
    const filtered = query.appKey !== undefined || query.repositoryKey !== undefined
    const applications = tx`
      select a.id from applications a join repositories r on r.id = a.repository_id
       where a.workspace_id = ${query.workspaceId}
         ${query.appKey === undefined ? tx`` : tx`and a.name_key = ${query.appKey}`}
         ${query.repositoryKey === undefined ? tx`` : tx`and r.full_name_key = ${query.repositoryKey}`}`
    return tx<DoraRow[]>`
      with history as materialized (
        select d.id, d.application_id, d.deployed_at, d.commit_hash
          from deployments d
         where d.environment_id = ${environment.id} and d.voided_at is null
           and d.deployed_at < ${query.until}::text::timestamptz
           ${filtered ? tx`and d.application_id in (${applications})` : tx``}
      ),
      ordered as materialized (
        select h.*,
               lag(h.commit_hash) over by_app as previous_commit,
               lead(h.id) over by_app as next_id,
               lag(h.id) over by_commit as earlier_same_commit
          from history h
        window by_app as (partition by h.application_id order by h.deployed_at, h.id),
               by_commit as (partition by h.application_id, h.commit_hash order by h.deployed_at, h.id)
      ),
      typed as materialized (
        select o.*,
               case when o.previous_commit is null then 'initial'
                    when o.previous_commit = o.commit_hash then 'redeploy'
                    when o.earlier_same_commit is not null then 'rollback'
                    else 'forward' end as change_type
          from ordered o
      ),
      signals as (
        select target.next_id as failed_id, rollback.deployed_at as recovered_at, rollback.id as fixer_id
          from typed rollback join typed target on target.id = rollback.earlier_same_commit
         where rollback.change_type = 'rollback'
        union all
        -- From the few reverting commits (deployment_commits_reverting), not from every deployment.
        select first_delivery.id, fixer.deployed_at, fixer.id
          from deployment_commits c
          join typed fixer on fixer.id = c.deployment_id
         cross join lateral unnest(c.reverts) as reverted(sha)
         cross join lateral (
           select t.id, t.deployed_at from deployment_commits tc join typed t on t.id = tc.deployment_id
            where tc.sha = reverted.sha and t.application_id = fixer.application_id
            order by t.deployed_at, t.id
            limit 1) first_delivery
         where cardinality(c.reverts) > 0
           and (first_delivery.deployed_at, first_delivery.id) < (fixer.deployed_at, fixer.id)
        union all
        select i.cause_deployment_id, i.resolved_at, null
          from incidents i join typed t on t.id = i.cause_deployment_id
         where i.workspace_id = ${query.workspaceId}
        union all
        -- A deployment that fixed an incident (notify --fixes) is rework, whatever the cause.
        select null, null, i.fixed_by_deployment_id
          from incidents i join typed t on t.id = i.fixed_by_deployment_id
         where i.workspace_id = ${query.workspaceId}
      ),
      failures as (
        select failed_id as id, min(recovered_at) as recovered_at
          from signals where failed_id is not null group by failed_id
      ),
      fixers as (select distinct fixer_id as id from signals where fixer_id is not null),
      in_window as (
        select t.*, f.id is not null as failed, f.recovered_at,
               (t.change_type = 'rollback' or x.id is not null) as rework,
               date_trunc(${bucket}, t.deployed_at at time zone 'UTC') at time zone 'UTC' as bucket_start
          from typed t
          left join failures f on f.id = t.id
          left join fixers x on x.id = t.id
         where t.deployed_at >= ${query.since}::text::timestamptz
      ),
      -- Each window deployment's commits by its key (deployment_commits_pkey); a commit counts
      -- unless an earlier deployment of the application delivered it (deployment_commits_by_sha:
      -- most commits are in one list only, so the probe finds just its own row).
      lead_times as (
        select w.bucket_start, extract(epoch from w.deployed_at - c.committed_at)::float8 as seconds
          from in_window w
         cross join lateral (
           select c.sha, c.committed_at from deployment_commits c where c.deployment_id = w.id) c
         where w.change_type <> 'initial'
           and not exists (
             select 1 from deployment_commits ec join deployments e on e.id = ec.deployment_id
              where ec.sha = c.sha and ec.deployment_id <> w.id
                and e.application_id = w.application_id and e.environment_id = ${environment.id}
                and e.voided_at is null and (e.deployed_at, e.id) < (w.deployed_at, w.id))
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
               percentile_cont(0.5) within group (order by seconds) as median,
               percentile_cont(0.9) within group (order by seconds) as p90
          from lead_times group by grouping sets ((), (bucket_start))
      )
      -- Seconds to the millisecond: percentiles interpolate in binary floating point.
      select case when d.whole then null else iso_utc(d.bucket_start) end as start,
             d.deployments, coalesce(c.commits, 0) as "leadCommits",
             round(c.median::numeric, 3)::float8 as "leadMedianSeconds",
             round(c.p90::numeric, 3)::float8 as "leadP90Seconds",
             d.changes, d.failed, d.recoveries,
             round(d.recovery_median::numeric, 3)::float8 as "recoveryMedianSeconds",
             d.open, d.rework
        from per_deployment d
        left join per_commit c on c.whole = d.whole and c.bucket_start is not distinct from d.bucket_start
       order by d.whole desc, d.bucket_start`
  })
}
