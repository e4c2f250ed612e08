import { expect, test } from 'bun:test'
import { EARLIEST_MICROS, instantFromMicros, isoFromPostgres, LATEST_MICROS } from '@shiplog/schema'
import fc from 'fast-check'
import { databasePerFile } from '../testing/database-per-file.ts'

// /v1/state prints its timestamps as Postgres prints a timestamptz (UTC, ISO style) and lets
// isoFromPostgres turn them into what iso_utc renders everywhere else. The two must agree on
// every instant a client can send.

const { sql } = databasePerFile({ applicationName: 'timestamps-test', maxConnections: 1 })

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
