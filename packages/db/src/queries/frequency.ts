import type { DeploymentFrequency } from '@shiplog/schema'
import type { Sql } from '../client.ts'

/** Buckets, per-application counts and totals of `deploymentFrequency`. */
export type FrequencyCounts = Pick<DeploymentFrequency, 'buckets' | 'applications' | 'totals'>

/**
 * Counts recorded deployments into the environment per UTC day or ISO week (from Monday), from
 * the bucket holding `since` up to `until` (exclusive), every bucket present (zero-filled) and every
 * application that deployed there at least once in the window. Computed in Postgres.
 */
export async function deploymentFrequency(
  sql: Sql,
  query: {
    workspaceId: string
    environmentKey: string
    bucket: 'day' | 'week'
    since: string
    until: string
  },
): Promise<FrequencyCounts> {
  const unit = query.bucket
  const rows = await sql<
    { bucket: string; app: string | null; repositoryFullName: string | null; count: number }[]
  >`
    with window_buckets as (
      select generate_series(
               date_trunc(${unit}, ${query.since}::text::timestamptz at time zone 'UTC'),
               (${query.until}::text::timestamptz at time zone 'UTC') - interval '1 microsecond',
               ('1 ' || ${unit})::interval) as bucket
    ),
    counted as (
      select d.application_id, date_trunc(${unit}, d.deployed_at at time zone 'UTC') as bucket, count(*)::int as count
        from deployments d join environments e on e.id = d.environment_id
       where d.workspace_id = ${query.workspaceId} and e.name_key = ${query.environmentKey}
         and d.deployed_at >= ${query.since}::text::timestamptz
         and d.deployed_at < ${query.until}::text::timestamptz
       group by 1, 2
    ),
    deployed as (select distinct application_id from counted)
    select iso_utc(w.bucket at time zone 'UTC') as bucket, a.name as app,
           r.full_name as "repositoryFullName", coalesce(c.count, 0) as count
      from window_buckets w
      left join deployed on true
      left join applications a on a.id = deployed.application_id
      left join repositories r on r.id = a.repository_id
      left join counted c on c.application_id = deployed.application_id and c.bucket = w.bucket
     order by w.bucket, r.full_name_key, a.name_key`
  const buckets = [...new Set(rows.map((row) => row.bucket))]
  const applications = new Map<
    string,
    { app: string; repositoryFullName: string; counts: number[] }
  >()
  for (const row of rows) {
    if (row.app === null || row.repositoryFullName === null) continue
    const key = `${row.repositoryFullName}\u0000${row.app}`
    let application = applications.get(key)
    if (!application) {
      application = { app: row.app, repositoryFullName: row.repositoryFullName, counts: [] }
      applications.set(key, application)
    }
    application.counts.push(row.count)
  }
  const list = [...applications.values()]
  return {
    buckets,
    applications: list,
    totals: buckets.map((_, index) =>
      list.reduce((sum, application) => sum + (application.counts[index] ?? 0), 0),
    ),
  }
}
