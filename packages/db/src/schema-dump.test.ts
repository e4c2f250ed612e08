import { expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { instantFromMicros } from '@shiplog/schema'
import { createSql, type Sql, type Tx } from './client.ts'
import { migrateDatabase } from './migrate.ts'
import { listMigrations } from './migrations.ts'
import { recordDeployments } from './queries/record-deployments.ts'
import { ensureWorkspace } from './queries/workspaces.ts'
import { readModelMatches, verifyReadModel } from './read-model.ts'
import { dumpSchema, dumpServerMajor, withoutServerWording } from './schema-dump.ts'
import { databasePerFile } from './testing/database-per-file.ts'
import { microsOf, toJob } from './testing/recorded-jobs.ts'
import { createEmptyTestDatabase, TEST_RETRY_POLICY } from './testing/test-database.ts'

// The last migration of the builds that had no packages/db/sql: they wrote functions, triggers
// and views in migrations, and applied nothing else.
const LAST_MIGRATION_BEFORE_CURRENT_SQL = 17

const { sql } = databasePerFile({ applicationName: 'schema-dump-test', maxConnections: 1 })

test('the committed schema.sql is what the migrations produce (regenerate: bun run db:dump)', async () => {
  const committed = await readFile(new URL('../schema.sql', import.meta.url), 'utf8')
  const fresh = await dumpSchema(sql)
  // Committed from the embedded PostgreSQL that `bun run test` and CI use; on another major
  // version the views' query text is worded differently, and everything else must match.
  if (dumpServerMajor(fresh) === dumpServerMajor(committed)) expect(fresh).toBe(committed)
  else expect(withoutServerWording(fresh)).toBe(withoutServerWording(committed))
})

test('across major versions, only the wording of view queries may differ', () => {
  const dump = (major: string, body: string, column = 'id bigint') =>
    `-- head\n-- PostgreSQL ${major}\n\n-- v: ${column}\ncreate view v as\n ${body};\n\ncreate table t (\n  id bigint\n);\n`
  const on15 = dump('15', 'SELECT d.id\n   FROM deployments d')
  expect(withoutServerWording(on15)).toBe(
    withoutServerWording(dump('18', 'SELECT id\n   FROM deployments d')),
  )
  expect(withoutServerWording(on15)).not.toBe(
    withoutServerWording(dump('18', 'SELECT id FROM d', 'id text')),
  )
  expect(dumpServerMajor(on15)).toBe('15')
})

test('the dump shows the triggers and views, not only tables and functions', async () => {
  const dump = await dumpSchema(sql)
  expect(dump).toContain(
    'CREATE TRIGGER deployments_after_insert AFTER INSERT ON public.deployments',
  )
  expect(dump).toContain('create view expected_deployment_cells as')
  // Foreign keys' internal triggers are Postgres's, not the schema's.
  expect(dump).not.toContain('RI_FKey')
})

/** Migrations up to `version` as the builds before packages/db/sql applied them: nothing else. */
async function migrateAsPreviousBuild(target: Sql, version: number) {
  await target.begin(async (tx) => {
    await tx`
      create table if not exists shiplog_migrations (
        version integer primary key,
        name text not null,
        applied_at timestamptz not null default now()
      )`
    for (const migration of (await listMigrations()).slice(0, version)) {
      await tx.unsafe(await readFile(migration.path, 'utf8'))
      await tx`insert into shiplog_migrations ${tx({ version: migration.version, name: migration.name })}`
    }
  })
}

const COMMIT = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'
const REVERT = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'

/**
 * Deployments, a rollback, a commit list with a revert and a void, as pipelines send them.
 * `previousSchema`: into a schema from before migration 0032, which lacks the `source` this
 * build's recorder writes, so the column is lent for the recording and dropped again.
 */
async function deploy(
  target: Sql,
  workspaceId: string,
  ids: string[],
  at: string,
  previousSchema = false,
) {
  const jobs = ids.map((id, index) =>
    toJob(
      id,
      {
        workspace: 0,
        repository: 'acme/shop',
        app: index % 2 === 0 ? 'api' : 'web',
        environment: 'production',
        version: `1.0.${id.slice(-2)}`,
        commitHash: index === 2 ? COMMIT : `${id.slice(-2)}${COMMIT.slice(2)}`,
        at: microsOf(at) + BigInt(index),
      },
      [workspaceId, workspaceId],
    ),
  )
  await target.begin(async (tx: Tx) => {
    if (previousSchema) await tx`alter table deployments add column source text`
    await recordDeployments(tx, jobs)
    if (previousSchema) await tx`alter table deployments drop column source`
  })
  const [first] = ids
  if (!first) return
  // In the columns every build has had: the previous builds wrote no subject, author or web_url.
  const committed = instantFromMicros(microsOf('2026-05-01T00:00:00Z')).iso
  await target.begin(async (tx: Tx) => {
    await tx`insert into deployment_commit_lists (deployment_id, workspace_id, truncated)
             values (${first}, ${workspaceId}, false)`
    await tx`insert into deployment_commits (deployment_id, sha, committed_at, authored_at, reverts)
             values (${first}, ${REVERT}, ${committed}, ${committed}, ${[COMMIT]})`
  })
  await target`update deployments set voided_at = now() where id = ${ids.at(-1) ?? first}`
}

test('a database the previous builds migrated, upgraded by this one, is the fresh schema, and its data stays exact', async () => {
  const upgraded = await createEmptyTestDatabase()
  const target = createSql(upgraded.url, {
    applicationName: 'schema-upgrade-test',
    maxConnections: 2,
  })
  try {
    await migrateAsPreviousBuild(target, LAST_MIGRATION_BEFORE_CURRENT_SQL)
    const { id: workspaceId } = await ensureWorkspace(target, 'upgraded')
    const id = (n: number) => `00000000-0000-7000-8000-0000000000${String(n).padStart(2, '0')}`
    // Recorded, listed and voided through the old triggers.
    await deploy(target, workspaceId, [id(1), id(2), id(3), id(4)], '2026-05-02T00:00:00Z', true)
    // A later deployment of the same stream lists the reverting commit again: the old triggers
    // count it as reverting there too, migration 0024 no longer does (docs/dora.md).
    await target.begin(async (tx: Tx) => {
      const committed = instantFromMicros(microsOf('2026-05-01T00:00:00Z')).iso
      await tx`insert into deployment_commit_lists (deployment_id, workspace_id, truncated)
               values (${id(3)}, ${workspaceId}, false)`
      await tx`insert into deployment_commits (deployment_id, sha, committed_at, authored_at, reverts)
               values (${id(3)}, ${REVERT}, ${committed}, ${committed}, ${[COMMIT]})`
    })
    const [before] = await target<{ reverts: boolean }[]>`
      select reverts from deployment_dora_facts where deployment_id = ${id(3)}`
    expect(before?.reverts).toBe(true)

    await migrateDatabase(upgraded.url, TEST_RETRY_POLICY)
    expect(await dumpSchema(target)).toBe(await dumpSchema(sql))
    expect(readModelMatches(await verifyReadModel(target))).toBe(true)
    // A forward deployment that first delivered nothing and reverts nothing: no row at all.
    const after = await target`select 1 from deployment_dora_facts where deployment_id = ${id(3)}`
    expect(after).toHaveLength(0)

    // Recorded, listed and voided through this build's.
    await deploy(target, workspaceId, [id(5), id(6), id(7), id(8)], '2026-05-03T00:00:00Z')
    const checks = await verifyReadModel(target)
    expect(
      checks.map(({ table, rows, missing, unexpected }) => ({ table, rows, missing, unexpected })),
    ).toEqual([
      // Two applications, each on two days of two blocks (2026-05-03 starts one) and one week.
      // Each cell holds its latest's day (2026-05-03) and week; the blocks hold 2026-05-02.
      { table: 'deployment_cells', rows: 2, missing: 0, unexpected: 0 },
      { table: 'deployment_counts', rows: 2, missing: 0, unexpected: 0 },
      // Two initial deployments (one with a reverting commit) and a rollback. The second list
      // re-delivers that reverting commit to the same stream: not its first delivery, so it
      // signals nothing there and its deployment holds no row (docs/dora.md).
      { table: 'deployment_dora_facts', rows: 3, missing: 0, unexpected: 0 },
    ])
  } finally {
    await target.end()
    await upgraded.drop()
  }
})
