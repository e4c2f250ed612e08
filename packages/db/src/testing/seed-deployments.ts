import type { Sql } from '../client.ts'

/** The shape of a seeded workspace; the defaults are the read benchmark's. */
export interface SeedShape {
  workspaceId: string
  deployments: number
  repositories?: number
  applicationsPerRepository?: number
  /** Deployments spread evenly over this many days, ending now. */
  days?: number
  /** Rows per insert statement; each statement covers its own slice of time, oldest first. */
  chunk?: number
}

// Six everyday environments by share of deployments, and one rare one that only every hundredth
// application deploys to (a fraction of a percent of all deployments).
const ENVIRONMENTS: [name: string, share: number][] = [
  ['development', 0.3],
  ['staging', 0.25],
  ['qa', 0.15],
  ['production', 0.15],
  ['canary', 0.1],
  ['sandbox', 0.05],
]
export const RARE_ENVIRONMENT = 'disaster-recovery'

/**
 * Seeds a workspace with SQL alone, fast enough for millions of rows: repositories, applications,
 * environments, then deployments in time order (as they arrive in production, so indexes grow as
 * they would). Applications are skewed: the first ones deploy far more often than the rest, as busy
 * services do; each numbers its own releases. Deployment ids are UUIDv7 of their deployedAt. The read model follows through the
 * deployments' trigger.
 */
export async function seedDeployments(sql: Sql, shape: SeedShape): Promise<void> {
  const repositories = shape.repositories ?? 50
  const perRepository = shape.applicationsPerRepository ?? 40
  const days = shape.days ?? 3 * 365
  const chunk = shape.chunk ?? 100_000
  const ws = shape.workspaceId
  await sql`
    insert into repositories (workspace_id, full_name, full_name_key)
    select ${ws}, 'acme/repo-' || lpad(n::text, 3, '0'), 'acme/repo-' || lpad(n::text, 3, '0')
      from generate_series(1, ${repositories}) n
    on conflict do nothing`
  await sql`
    insert into applications (workspace_id, repository_id, name, name_key)
    select r.workspace_id, r.id, name, name
      from repositories r
     cross join lateral (
       select 'svc-' || lpad(((r.id % 1000) * 1000 + n)::text, 7, '0') as name
         from generate_series(1, ${perRepository}) n) names
     where r.workspace_id = ${ws}
    on conflict do nothing`
  const names = [...ENVIRONMENTS.map(([name]) => name), RARE_ENVIRONMENT]
  await sql`
    insert into environments (workspace_id, name, name_key)
    select ${ws}, name, name from unnest(${names}::text[]) name
    on conflict do nothing`
  let cumulative = 0
  const thresholds = ENVIRONMENTS.map(([, share]) => {
    cumulative += share
    return cumulative
  })
  const chunks = Math.ceil(shape.deployments / chunk)
  for (let index = 0; index < chunks; index++) {
    const rows = Math.min(chunk, shape.deployments - index * chunk)
    await sql.begin(async (tx) => {
      // A chunk may take longer than a request's timeout on a busy machine; it is no request.
      await tx`set local statement_timeout = 0`
      await tx`
      with apps as (
        select array_agg(id order by id) as ids from applications where workspace_id = ${ws}),
      envs as (
        select array_agg(id order by array_position(${names}::text[], name_key)) as ids
          from environments where workspace_id = ${ws} and name_key = any(${names}::text[])),
      picked as (
        select now() - ${days} * interval '1 day'
                 + (${index} + random()) / ${chunks} * ${days} * interval '1 day' as at,
               1 + floor(cardinality(apps.ids) * power(random(), 2))::integer as app,
               random() as env_draw, apps.ids as app_ids, envs.ids as env_ids, n
          from generate_series(1, ${rows}) n, apps, envs),
      -- Each application numbers its own releases, as teams do: 1.0.1, 1.0.2…
      released as (
        select application_id, sum(deployment_count) as count from deployment_cells
         where workspace_id = ${ws} group by application_id),
      numbered as (
        select picked.*,
               (coalesce(released.count, 0) + row_number() over (partition by app order by at))::bigint as release
          from picked left join released on released.application_id = picked.app_ids[picked.app])
      insert into deployments (id, workspace_id, application_id, environment_id, version,
                               commit_hash, description, author, deployed_at, received_at, recorded_at)
      select (lpad(to_hex(floor(extract(epoch from at) * 1000)::bigint), 12, '0') || '7'
                || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid,
             ${ws}, app_ids[app],
             env_ids[case when app % 100 = 7 and env_draw < 0.05 then ${names.length}
                          else 1 + (select count(*) from unnest(${thresholds}::float8[]) t where env_draw >= t)::integer end],
             '1.' || (release / 100) || '.' || (release % 100),
             md5(n::text || at::text) || substr(md5(at::text), 1, 8),
             case when n % 2 = 0 then 'Release ' || (n % 97) end,
             'dev-' || (n % 200), at, at + interval '2 seconds', at + interval '2.05 seconds'
        from numbered
       order by at`
    })
  }
  await sql`analyze`
}
