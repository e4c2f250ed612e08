import { afterAll, beforeAll, expect, test } from 'bun:test'
import { EARLIEST_MICROS, instantFromMicros, isoFromPostgres, LATEST_MICROS } from '@shiplog/schema'
import fc from 'fast-check'
import { createSql, type Sql } from '../client.ts'
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts'

// /v1/state prints its timestamps as Postgres prints a timestamptz (UTC, ISO style) and lets
// isoFromPostgres turn them into what iso_utc renders everywhere else. The two must agree on
// every instant a client can send.

let database: TestDatabase
let sql: Sql
beforeAll(async () => {
  database = await createTestDatabase()
  sql = createSql(database.url, { applicationName: 'timestamps-test', maxConnections: 1 })
})
afterAll(async () => {
  await sql?.end()
  await database?.drop()
})

test('isoFromPostgres of a timestamptz printed in UTC and ISO style is what iso_utc renders', async () => {
  const instants = fc.oneof(
    fc.bigInt({ min: EARLIEST_MICROS, max: LATEST_MICROS }),
    fc.bigInt({ min: -10_000_000n, max: 10_000_000n }),
    fc.constantFrom(EARLIEST_MICROS, LATEST_MICROS, 0n, -1n, 1n, 120_000n, 123_400n, 1_000_000n),
  )
  await fc.assert(
    fc.asyncProperty(fc.array(instants, { minLength: 1, maxLength: 200 }), async (micros) => {
      const rows = await sql.begin(async (tx) => {
        await tx`select set_config('timezone', 'UTC', true), set_config('datestyle', 'ISO, YMD', true)`
        return tx<{ printed: string; expected: string }[]>`
          select ts::text as printed, iso_utc(ts) as expected
            from unnest(${micros.map((m) => instantFromMicros(m).iso)}::timestamptz[]) ts`
      })
      for (const { printed, expected } of rows) {
        expect({ printed, iso: isoFromPostgres(printed) }).toEqual({ printed, iso: expected })
      }
    }),
    { numRuns: 50 },
  )
})
