import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { createSql, type Sql } from './client.ts'
import { applyMigrations, listMigrations } from './migrations.ts'
import { verifyReadModel } from './read-model.ts'
import { createEmptyTestDatabase, type TestDatabase } from './testing/test-database.ts'

// Migration 0029 moves each stream's counts of its latest's day and week from deployment_counts
// into its cell. A database at 0028 with a read model as 0028's code kept it (every bucket in
// deployment_counts) must come out of it exact.

let database: TestDatabase
let sql: Sql
beforeAll(async () => {
  database = await createEmptyTestDatabase()
  sql = createSql(database.url, { applicationName: 'migration-0029-test', maxConnections: 1 })
})
afterAll(async () => {
  await sql?.end()
  await database?.drop()
})

const DEPLOYED_AT = [
  // api in production: three days of one week, the latest two on one day; and a week before.
  ['api', 'production', '2026-05-04T09:00:00Z'],
  ['api', 'production', '2026-05-06T10:00:00Z'],
  ['api', 'production', '2026-05-06T11:00:00Z'],
  ['api', 'production', '2026-04-27T08:00:00Z'],
  // web in production: alone in its block of days.
  ['web', 'production', '2026-05-01T12:00:00Z'],
  // api in staging: before 1970, where bucket numbers are negative.
  ['api', 'staging', '1969-12-31T23:59:59Z'],
  ['api', 'staging', '1969-12-30T00:00:00Z'],
] as const

test('0029 moves the latest day and week into the cells; the read model stays exact', async () => {
  const migrations = await listMigrations()
  await sql.begin(async (tx) => {
    await tx`create table shiplog_migrations (version integer primary key, name text not null,
             applied_at timestamptz not null default now())`
    for (const migration of migrations.filter(({ version }) => version < 29)) {
      await tx.unsafe(await readFile(migration.path, 'utf8'))
      await tx`insert into shiplog_migrations ${tx({ version: migration.version, name: migration.name })}`
    }
  })
  const [workspace] = await sql<{ id: string }[]>`
    insert into workspaces (slug) values ('w') returning id::text`
  const [repository] = await sql<{ id: string }[]>`
    insert into repositories (workspace_id, full_name, full_name_key)
    values (${workspace?.id ?? ''}, 'acme/shop', 'acme/shop') returning id::text`
  for (const [index, [app, environment, at]] of DEPLOYED_AT.entries()) {
    await sql`
      insert into applications (workspace_id, repository_id, name, name_key)
      values (${workspace?.id ?? ''}, ${repository?.id ?? ''}, ${app}, ${app})
      on conflict do nothing`
    await sql`
      insert into environments (workspace_id, name, name_key)
      values (${workspace?.id ?? ''}, ${environment}, ${environment})
      on conflict do nothing`
    await sql`
      insert into deployments (id, workspace_id, application_id, environment_id, version,
                               commit_hash, deployed_at, received_at)
      select gen_random_uuid(), a.workspace_id, a.id, e.id, ${`1.0.${index}`},
             ${String(index).repeat(40)}, ${at}::timestamptz, now()
        from applications a, environments e
       where a.name_key = ${app} and e.name_key = ${environment}`
  }
  // The read model as 0028's code kept it: every bucket in deployment_counts.
  await sql`
    insert into deployment_cells
    select distinct on (d.application_id, d.environment_id)
           d.workspace_id, d.application_id, d.environment_id,
           count(*) over (partition by d.application_id, d.environment_id),
           d.id, d.deployed_at, d.version, d.commit_hash
      from deployments d
     order by d.application_id, d.environment_id, d.deployed_at desc, d.id desc`
  await sql`
    insert into deployment_counts
    select workspace_id, environment_id, application_id, bucket_days, number >> 5,
           string_agg((number & 31) || ':' || count, ',' order by number & 31)
      from (select d.workspace_id, d.environment_id, d.application_id, unit.bucket_days,
                   bucket_number(d.deployed_at, unit.bucket_days) as number, count(*)::integer as count
              from deployments d cross join (values (1::smallint), (7::smallint)) unit(bucket_days)
             group by 1, 2, 3, 4, 5) slots
     group by 1, 2, 3, 4, 5`
  const [before] = await sql<
    { rows: number }[]
  >`select count(*)::int as rows from deployment_counts`

  // 0029 and the migrations after it, which leave the read model's rows as they are.
  expect((await applyMigrations(sql)).migrations.map(({ version }) => version)).toEqual(
    migrations.filter(({ version }) => version >= 29).map(({ version }) => version),
  )
  // The cells and the blocks: this test left the DORA facts, which 0029 does not touch, empty.
  const checks = (await verifyReadModel(sql)).filter(
    ({ table }) => table !== 'deployment_dora_facts',
  )
  expect(checks.flatMap((check) => check.examples)).toEqual([])
  expect(checks.map(({ table, rows }) => ({ table, rows }))).toEqual([
    { table: 'deployment_cells', rows: 3 },
    { table: 'deployment_counts', rows: 4 },
  ])
  const held = await sql<{ app: string; environment: string; day: number; week: number }[]>`
    select a.name as app, e.name as environment, c.latest_day_count as day, c.latest_week_count as week
      from deployment_cells c
      join applications a on a.id = c.application_id
      join environments e on e.id = c.environment_id
     order by 1, 2`
  expect([...held]).toEqual([
    { app: 'api', environment: 'production', day: 2, week: 3 },
    { app: 'api', environment: 'staging', day: 1, week: 2 },
    { app: 'web', environment: 'production', day: 1, week: 1 },
  ])
  // Blocks that held only a latest's bucket are gone: web's two and the staging week's.
  const [after] = await sql<{ rows: number }[]>`select count(*)::int as rows from deployment_counts`
  expect({ before: before?.rows, after: after?.rows }).toEqual({ before: 7, after: 4 })
})
