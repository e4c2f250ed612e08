import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { createSql, type Sql } from './client.ts'
import { dumpSchema } from './schema-dump.ts'
import { createTestDatabase, type TestDatabase } from './testing/test-database.ts'

let database: TestDatabase
let sql: Sql
beforeAll(async () => {
  database = await createTestDatabase()
  sql = createSql(database.url, { applicationName: 'schema-dump-test', maxConnections: 1 })
})
afterAll(async () => {
  await sql?.end()
  await database?.drop()
})

test('the committed schema.sql is what the migrations produce (regenerate: bun run db:dump)', async () => {
  const committed = await readFile(new URL('../schema.sql', import.meta.url), 'utf8')
  expect(await dumpSchema(sql)).toBe(committed)
})
