import { afterAll, beforeAll } from 'bun:test'
import { type ClientOptions, createSql, type Sql } from '../client.ts'
import { createTestDatabase, type TestDatabase } from './test-database.ts'

/**
 * A database of the test file's own and a client of it: created before the file's first test,
 * dropped after its last. Call it at the top of the file; `sql` stands for the client and `url`
 * names the database inside hooks and tests (not while the file loads).
 */
export function databasePerFile(options: ClientOptions): { sql: Sql; readonly url: string } {
  let database: TestDatabase | undefined
  let client: Sql | undefined
  beforeAll(async () => {
    database = await createTestDatabase()
    client = createSql(database.url, options)
  })
  afterAll(async () => {
    await client?.end()
    await database?.drop()
  })
  const opened = <Value>(value: Value | undefined): Value => {
    if (value === undefined)
      throw new Error('the file’s database is made in beforeAll: use it in a test')
    return value
  }
  return {
    // An arrow function as the target: the stand-in is called as the client is (sql`…`).
    sql: new Proxy((() => {}) as unknown as Sql, {
      apply: (_, self, args) => Reflect.apply(opened(client), self, args),
      get: (_, property) => Reflect.get(opened(client), property),
      has: (_, property) => Reflect.has(opened(client), property),
    }),
    get url() {
      return opened(database).url
    },
  }
}
