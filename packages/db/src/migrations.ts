// Shiplog's own schema as numbered, forward-only `.sql` files (tables, indexes, data moves):
// listing, versions and applying them, then the current-state SQL (`current-sql.ts`: functions,
// triggers, views). One part of the migrate step (`migrate.ts`), which also installs pg-boss and
// the queues.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Sql } from './client.ts'
import { applyCurrentSql, ensureCurrentSqlTable } from './current-sql.ts'

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url))
const FILE_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/

// Arbitrary but fixed: every replica that starts at once queues on this one lock.
const MIGRATION_LOCK = 7_338_241_002

/** One numbered `.sql` file under `packages/db/migrations`. */
export interface Migration {
  version: number
  name: string
  path: string
}

/** Reads the migration files in order, refusing gaps or duplicates in the numbering. */
export async function listMigrations(directory = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.sql')).sort()
  return names.map((name, index) => {
    const match = FILE_NAME.exec(name)
    if (!match) {
      throw new Error(`Migration file ${name} must be named NNNN_description.sql (lower case)`)
    }
    const version = Number(match[1])
    if (version !== index + 1) {
      throw new Error(
        `Migration ${name} should be number ${String(index + 1).padStart(4, '0')}: ` +
          'migrations are numbered without gaps or repeats',
      )
    }
    return { version, name, path: join(directory, name) }
  })
}

/** The newest migration this build knows about; `/readyz` compares the database against it. */
export async function latestMigrationVersion(): Promise<number> {
  return (await listMigrations()).length
}

/** The newest migration applied to the database, 0 when none (or the table is missing). */
export async function appliedMigrationVersion(sql: Sql): Promise<number> {
  // Two statements: one naming a missing table fails to parse, whatever guards it.
  const [table] = await sql<{ found: boolean }[]>`
    select to_regclass('shiplog_migrations') is not null as found`
  if (!table?.found) return 0
  const [row] = await sql<{ version: number }[]>`
    select coalesce(max(version), 0)::int as version from shiplog_migrations`
  return row?.version ?? 0
}

/** What one run of the migrate step applied. */
export interface MigrationRun {
  migrations: Migration[]
  /** Whether the current-state SQL was applied (it changed, or a migration ran). */
  currentSql: boolean
}

/**
 * Applies pending migrations in order, then the current-state SQL when it changed or a migration
 * ran, all in one transaction with their records, under an advisory lock so replicas starting
 * together apply each exactly once. Only Shiplog's own schema: `migrate.ts` is the whole step,
 * pg-boss and the queues included.
 */
export async function applyMigrations(sql: Sql): Promise<MigrationRun> {
  const migrations = await listMigrations()
  const applied: Migration[] = []
  let currentSql = false
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`
    await tx`
      create table if not exists shiplog_migrations (
        version integer primary key,
        name text not null,
        applied_at timestamptz not null default now()
      )`
    const [row] = await tx<{ version: number }[]>`
      select coalesce(max(version), 0)::int as version from shiplog_migrations`
    const current = row?.version ?? 0
    if (current > migrations.length) {
      throw new Error(
        `The database is at migration ${current} but this build only knows ${migrations.length}: ` +
          'deploy the newer build, or restore a matching database',
      )
    }
    for (const migration of migrations.slice(current)) {
      await tx.unsafe(await readFile(migration.path, 'utf8'))
      await tx`insert into shiplog_migrations ${tx({ version: migration.version, name: migration.name })}`
      applied.push(migration)
    }
    await ensureCurrentSqlTable(tx)
    currentSql = await applyCurrentSql(tx, applied.length > 0)
  })
  return { migrations: applied, currentSql }
}
