// `bun run db:dump`: regenerates packages/db/schema.sql from a freshly migrated database.
import { writeFile } from 'node:fs/promises'
import { createSql } from '@shiplog/db/client'
import { dumpSchema } from '@shiplog/db/schema-dump'
import { createTestDatabase, stopTestServer } from '@shiplog/db/testing'

const database = await createTestDatabase()
const sql = createSql(database.url, { applicationName: 'shiplog-dump', maxConnections: 1 })
try {
  const target = new URL('../packages/db/schema.sql', import.meta.url)
  await writeFile(target, await dumpSchema(sql))
  console.log('wrote packages/db/schema.sql')
} finally {
  await sql.end()
  await database.drop()
  await stopTestServer()
}
