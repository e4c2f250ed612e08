import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSql } from './client.ts'
import { listCurrentSql } from './current-sql.ts'
import { applyMigrations, listMigrations } from './migrations.ts'
import { dumpSchema } from './schema-dump.ts'
import { databasePerFile } from './testing/database-per-file.ts'

// The first migration of the layout where functions, triggers and views live in packages/db/sql.
const FIRST_MIGRATION_WITH_CURRENT_SQL = 18

let directory: string | undefined
afterEach(async () => {
  if (directory) await rm(directory, { recursive: true })
  directory = undefined
})

async function folderWith(names: string[]): Promise<string> {
  directory = await mkdtemp(join(tmpdir(), 'shiplog-current-sql-'))
  for (const name of names) await writeFile(join(directory, name), 'select 1;')
  return directory
}

describe('the files', () => {
  test('are applied in the order of their numbers', async () => {
    const files = await listCurrentSql(await folderWith(['09_z.sql', '01_b.sql', 'notes.md']))
    expect(files.map((file) => file.name)).toEqual(['01_b.sql', '09_z.sql'])
  })

  test('a number given twice is refused, naming both files', async () => {
    const folder = await folderWith(['01_a.sql', '02_b.sql', '02_c.sql'])
    await expect(listCurrentSql(folder)).rejects.toThrow(
      'Current-state files 02_b.sql and 02_c.sql share the number 02',
    )
  })

  test('a badly named file is refused', async () => {
    const folder = await folderWith(['01_a.sql', 'Triggers.sql'])
    await expect(listCurrentSql(folder)).rejects.toThrow('must be named NN_concern.sql')
  })
})

/** What the shipped files define, by kind: `name` for each `create … function|view|trigger`. */
async function definedInFiles() {
  const defined: { kind: string; name: string; file: string }[] = []
  for (const file of await listCurrentSql()) {
    const text = await readFile(file.path, 'utf8')
    for (const match of text.matchAll(/^create (?:or replace )?(function|view|trigger) (\w+)/gim)) {
      defined.push({
        kind: String(match[1]).toLowerCase(),
        name: String(match[2]),
        file: file.name,
      })
    }
  }
  return defined
}

const database = databasePerFile({ applicationName: 'current-sql-test', maxConnections: 2 })
const { sql } = database

describe('one current definition of each function, view and trigger', () => {
  test('every one in a migrated database is defined once, in packages/db/sql', async () => {
    const inDatabase = await sql<{ kind: string; name: string }[]>`
      select 'function' as kind, p.proname as name
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'
      union all
      select 'view', c.relname
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('v', 'm')
      union all
      select 'trigger', t.tgname
        from pg_trigger t join pg_class c on c.oid = t.tgrelid
        join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and not t.tgisinternal`
    const defined = await definedInFiles()
    const key = ({ kind, name }: { kind: string; name: string }) => `${kind} ${name}`
    expect(defined.map(key).sort()).toEqual(inDatabase.map(key).sort())
    expect(new Set(defined.map(key)).size).toBe(defined.length)
  })

  test('no migration of this layout defines one: migrations keep tables, indexes and data', async () => {
    const offending: string[] = []
    for (const migration of await listMigrations()) {
      if (migration.version < FIRST_MIGRATION_WITH_CURRENT_SQL) continue
      const text = await readFile(migration.path, 'utf8')
      if (/^\s*create\s+(or\s+replace\s+)?(function|view|trigger|procedure)\b/im.test(text)) {
        offending.push(migration.name)
      }
    }
    expect(offending).toEqual([])
  })
})

describe('applied again only when they changed', () => {
  const ISO_UTC = `create or replace function iso_utc(ts timestamptz) returns text
    language sql immutable strict parallel safe as $$ select 'altered by hand' $$`

  test('unchanged, the migrate step applies nothing and takes no lock on the tables', async () => {
    // A long read holds deployments: dropping a trigger there would wait for it to end, here
    // no longer than the lock timeout.
    const migrator = createSql(database.url, {
      applicationName: 'current-sql-test-migrate',
      maxConnections: 1,
      settings: { lock_timeout: '2s' },
    })
    const reader = await sql.reserve()
    try {
      await reader`begin`
      await reader`select count(*) from deployments`
      await sql.unsafe(ISO_UTC)
      expect(await applyMigrations(migrator)).toEqual({ migrations: [], currentSql: false })
      const [row] = await sql<{ text: string }[]>`select iso_utc(now()) as text`
      expect(row?.text).toBe('altered by hand')
    } finally {
      await reader`rollback`
      reader.release()
      await migrator.end()
    }
  })

  test("another build's files (its hash recorded last) are replaced by this build's", async () => {
    const fresh = await readFile(new URL('../schema.sql', import.meta.url), 'utf8')
    await sql.unsafe(ISO_UTC)
    await sql`
      insert into shiplog_current_sql (hash, applied_at) values ('another build', clock_timestamp())`
    expect(await applyMigrations(sql)).toEqual({ migrations: [], currentSql: true })
    const [row] = await sql<{ text: string }[]>`
      select iso_utc('2026-05-04T12:00:00Z'::timestamptz) as text`
    expect(row?.text).toBe('2026-05-04T12:00:00.000Z')
    expect(await dumpSchema(sql)).toBe(fresh)
    // Applied twice, the files change nothing.
    await sql`
      insert into shiplog_current_sql (hash, applied_at) values ('yet another', clock_timestamp())`
    expect((await applyMigrations(sql)).currentSql).toBe(true)
    expect(await dumpSchema(sql)).toBe(fresh)
  })
})
