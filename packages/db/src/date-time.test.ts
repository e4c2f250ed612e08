import { expect, test } from 'bun:test'
import { validateDeployment } from '@shiplog/schema'
import fc from 'fast-check'
import { databasePerFile } from './testing/database-per-file.ts'

// The validator turns deployedAt into the instant Postgres will store, as Postgres renders it.
// This holds it to that against Postgres itself: for every string the validator accepts, the
// normalised text names the same timestamptz as the original, and comes back from iso_utc unchanged.

const { sql } = databasePerFile({ applicationName: 'date-time-test', maxConnections: 2 })

const NOW = new Date('2026-05-01T12:00:00Z')
const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max })
const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))

// Mostly real dates in every era and zone, with fractions of any length; some impossible ones
// (day 31 of every month, hour 23 at +14:00 on the last day of year 1 or 9999) so the range
// checks are exercised too.
const dateTime = fc
  .record({
    year: fc.oneof(
      fc.integer({ min: 1, max: 9999 }),
      fc.constantFrom(1, 2, 1969, 1970, 2000, 2026, 9999),
    ),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: two(23),
    minute: two(59),
    second: two(59),
    fraction: fc.option(digits(1, 40), { freq: 2 }),
    zone: fc.oneof(
      fc.constantFrom('Z', 'z', '+00:00', '-00:00', '+14:00', '-14:59', '+05:30'),
      fc.tuple(fc.constantFrom('+', '-'), two(14), two(59)).map(([s, h, m]) => `${s}${h}:${m}`),
    ),
    t: fc.constantFrom('T', 't'),
  })
  .map(
    (d) =>
      `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` +
      `${d.t}${d.hour}:${d.minute}:${d.second}${d.fraction === null ? '' : `.${d.fraction}`}${d.zone}`,
  )

test('every deployedAt the validator accepts names, normalised, the instant Postgres stores for it', async () => {
  const accepted: [string, string][] = []
  fc.assert(
    fc.property(dateTime, (value) => {
      const result = validateDeployment(
        {
          repositoryFullName: 'acme/shop',
          environment: 'production',
          app: 'api',
          version: '1',
          commitHash: 'abcdef1',
          deployedAt: value,
        },
        NOW,
      )
      if (result.ok) accepted.push([value, result.value.deployedAt as string])
      else expect(result.errors.map((error) => error.field)).toEqual(['deployedAt'])
    }),
    { numRuns: 3_000 },
  )
  expect(accepted.length).toBeGreaterThan(1_000)
  const rows = await sql<{ original: string; normalised: string; same: boolean; back: string }[]>`
    select t.original, t.normalised,
           t.original::timestamptz = t.normalised::timestamptz as same,
           iso_utc(t.normalised::timestamptz) as back
      from unnest(${accepted.map(([original]) => original)}::text[],
                  ${accepted.map(([, normalised]) => normalised)}::text[]) as t(original, normalised)`
  const wrong = rows.filter((row) => !row.same || row.back !== row.normalised)
  expect(wrong).toEqual([])
}, 60_000)
