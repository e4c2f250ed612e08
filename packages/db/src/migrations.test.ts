import { afterEach, expect, test } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listMigrations } from './migrations.ts'

let directory: string | undefined
afterEach(async () => {
  if (directory) await rm(directory, { recursive: true })
})

async function folderWith(names: string[]): Promise<string> {
  directory = await mkdtemp(join(tmpdir(), 'shiplog-migrations-'))
  for (const name of names) await writeFile(join(directory, name), 'select 1;')
  return directory
}

test('the shipped migrations are numbered from 0001 without gaps', async () => {
  const migrations = await listMigrations()
  expect(migrations.map((migration) => migration.version)).toEqual(
    migrations.map((_, index) => index + 1),
  )
})

test('migrations are ordered by number', async () => {
  const migrations = await listMigrations(
    await folderWith(['0002_b.sql', '0001_a.sql', 'notes.md']),
  )
  expect(migrations.map((migration) => migration.name)).toEqual(['0001_a.sql', '0002_b.sql'])
})

test('a gap in the numbering is refused, naming the file', async () => {
  const folder = await folderWith(['0001_a.sql', '0003_c.sql'])
  await expect(listMigrations(folder)).rejects.toThrow('Migration 0003_c.sql should be number 0002')
})

test('a badly named file is refused', async () => {
  const folder = await folderWith(['0001_a.sql', '2_Bad.sql'])
  await expect(listMigrations(folder)).rejects.toThrow('must be named NNNN_description.sql')
})
