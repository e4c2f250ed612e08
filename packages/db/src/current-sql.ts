// Shiplog's functions, triggers and views as they are now: one idempotent `.sql` file per concern
// under `packages/db/sql`, applied in the order of their numbers after the numbered migrations
// (`migrations.ts`), in the same transaction. docs/database.md says when and why.
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Sql, Tx } from './client.ts'

const CURRENT_SQL_DIR = fileURLToPath(new URL('../sql/', import.meta.url))
const FILE_NAME = /^(\d{2})_[a-z0-9_]+\.sql$/

/** One file under `packages/db/sql`: a file may use what files with lower numbers define. */
export interface CurrentSqlFile {
  order: number
  name: string
  path: string
}

/** Reads the file list in the order of their numbers, refusing bad names and repeated numbers. */
export async function listCurrentSql(directory = CURRENT_SQL_DIR): Promise<CurrentSqlFile[]> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.sql')).sort()
  const files = names.map((name) => {
    const match = FILE_NAME.exec(name)
    if (!match)
      throw new Error(`Current-state file ${name} must be named NN_concern.sql (lower case)`)
    return { order: Number(match[1]), name, path: join(directory, name) }
  })
  for (const [index, file] of files.entries()) {
    const previous = files[index - 1]
    if (previous?.order === file.order) {
      throw new Error(
        `Current-state files ${previous.name} and ${file.name} share the number ${file.name.slice(0, 2)}: ` +
          'give each its own, in the order they must be applied',
      )
    }
  }
  return files
}

/** The files' texts in order, and their names and texts hashed: what the database records. */
export async function readCurrentSql(
  directory = CURRENT_SQL_DIR,
): Promise<{ texts: string[]; hash: string }> {
  const hash = createHash('sha256')
  const texts: string[] = []
  for (const file of await listCurrentSql(directory)) {
    const text = await readFile(file.path, 'utf8')
    hash.update(`${file.name}\0${text}\0`)
    texts.push(text)
  }
  return { texts, hash: hash.digest('hex') }
}

let buildHash: Promise<string> | undefined

/** This build's hash, read once per process: readiness asks every second. */
export function currentSqlHash(): Promise<string> {
  buildHash ??= readCurrentSql().then(({ hash }) => hash)
  return buildHash
}

/** Creates the record of applied hashes; `applyMigrations` calls it under its lock. */
export async function ensureCurrentSqlTable(tx: Tx): Promise<void> {
  await tx`
    create table if not exists shiplog_current_sql (
      hash text primary key,
      applied_at timestamptz not null
    )`
}

/**
 * Applies every file, in order, and records this build's hash, unless the hash recorded last is
 * already this build's and `force` is false. Runs in the caller's transaction: the migrate step's,
 * under its advisory lock, after the migrations (which force it when any was applied, since a
 * migration may drop what these files define). True when the files were applied.
 */
export async function applyCurrentSql(tx: Tx, force: boolean): Promise<boolean> {
  const { texts, hash } = await readCurrentSql()
  const [last] = await tx<{ hash: string }[]>`
    select hash from shiplog_current_sql order by applied_at desc limit 1`
  if (!force && last?.hash === hash) return false
  for (const text of texts) await tx.unsafe(text)
  // The clock, not the transaction's start: a migrate step that waited on the lock applies later
  // than one that started after it.
  await tx`
    insert into shiplog_current_sql (hash, applied_at) values (${hash}, clock_timestamp())
    on conflict (hash) do update set applied_at = excluded.applied_at`
  return true
}

/**
 * Whether this build's current-state SQL has been applied to the database, now or before a newer
 * build's replaced it (old replicas keep running while a rollout's migrate step applies the
 * next build's files, as they do with its migrations).
 */
export async function currentSqlApplied(sql: Sql): Promise<boolean> {
  const hash = await currentSqlHash()
  // Two statements: one naming a missing table fails to parse, whatever guards it.
  const [table] = await sql<{ found: boolean }[]>`
    select to_regclass('shiplog_current_sql') is not null as found`
  if (!table?.found) return false
  const [row] = await sql<{ applied: boolean }[]>`
    select exists (select 1 from shiplog_current_sql where hash = ${hash}) as applied`
  return row?.applied ?? false
}
