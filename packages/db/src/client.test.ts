import { expect, test } from 'bun:test'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { hashApiKey } from './api-key.ts'
import { issueApiKey } from './issue-api-key.ts'
import { findActiveKey } from './queries/api-keys.ts'
import { databasePerFile } from './testing/database-per-file.ts'

// One connection, so every query runs right after the one before it on the same socket: that is
// where postgres.js 3.4.9 carried a failed query's row count over (see patches/postgres@3.4.9.patch).
const { sql } = databasePerFile({
  applicationName: 't',
  maxConnections: 1,
  statementTimeoutMs: 300,
})

const TIMEOUT = 'canceling statement due to statement timeout'
const timedOut = () =>
  sql`select i, pg_sleep(case when i > 3 then 2 else 0 end) from generate_series(1, 10) i`
const dividedByZero = () => sql`select i, 1 / (4 - i) as boom from generate_series(1, 10) i`

// First counts the rows with forEach, which keeps no row counter, to prove three reach the client
// before the error (else these tests would pass without the fix); then runs the query plainly,
// which is what left the stale counter behind.
async function streamThreeRowsThenFail(query: typeof timedOut, error: string) {
  let streamed = 0
  await expect(query().forEach(() => void streamed++)).rejects.toThrow(error)
  expect(streamed).toBe(3)
  await expect(query()).rejects.toThrow(error)
}

// Array.from turns holes into undefined, so a sparse result cannot pass for a dense one.
async function oneToFive(): Promise<unknown[]> {
  const rows = await sql<{ x: number }[]>`select x from generate_series(1, 5) x`
  return Array.from(rows, (row) => row?.x)
}

test('the query after one cancelled by the statement timeout mid-stream gets every row', async () => {
  await streamThreeRowsThenFail(timedOut, TIMEOUT)
  expect(await oneToFive()).toEqual([1, 2, 3, 4, 5])
})

test('the query after a division by zero on row 4 gets every row', async () => {
  await streamThreeRowsThenFail(dividedByZero, 'division by zero')
  expect(await oneToFive()).toEqual([1, 2, 3, 4, 5])
})

test('a valid key is found on a connection whose last query timed out mid-stream', async () => {
  const { id, key } = await issueApiKey(sql, { workspace: 'stale', name: 'ci' })
  await streamThreeRowsThenFail(timedOut, TIMEOUT)
  expect(await findActiveKey(sql, hashApiKey(key))).toMatchObject({
    keyId: id,
    workspaceSlug: 'stale',
  })
})

// No ErrorResponse here: only the reset at ReadyForQuery covers it.
test('the query after a cursor whose callback threw gets every row', async () => {
  const cursor = sql`select i from generate_series(1, 10) i`.cursor(3, () => {
    throw new Error('stop reading')
  })
  await expect(cursor).rejects.toThrow('stop reading')
  expect(await oneToFive()).toEqual([1, 2, 3, 4, 5])
})

test('a COPY rejected after all its data was sent fails rather than finishing later', async () => {
  await sql`create temporary table copied (x int primary key)`
  const copy = await sql`copy copied from stdin`.writable()
  await expect(pipeline(Readable.from(['1\n', '1\n']), copy)).rejects.toThrow('duplicate key')
  expect(await oneToFive()).toEqual([1, 2, 3, 4, 5])
})

test('bytes go to a bytea in binary and come back the same, next to text and null; a string still means its UTF-8', async () => {
  // Every byte value, zeros and a run longer than postgres.js's first buffer (256 bytes) included.
  const every = Uint8Array.from({ length: 1_024 }, (_, index) => index % 256)
  const cases = [new Uint8Array(), every, Buffer.from('\\x00 not hex', 'utf8'), null]
  for (const bytes of cases) {
    const [row] = await sql<{ stored: Buffer | null; size: number | null; label: string }[]>`
      select ${bytes}::bytea as stored, octet_length(${bytes}::bytea) as size,
             ${'a label'}::text as label`
    expect(row?.label).toBe('a label')
    expect(row?.size).toBe(bytes === null ? null : bytes.byteLength)
    const stored = row?.stored
    expect(stored === null || stored === undefined ? stored : [...stored]).toEqual(
      bytes === null ? null : [...bytes],
    )
  }
  // A string bound to a bytea still means its UTF-8 bytes, sent as hex text as before the patch.
  const [text] = await sql<{ stored: Buffer }[]>`select ${'\\x01 é'}::bytea as stored`
  expect([...(text?.stored ?? [])]).toEqual([...Buffer.from('\\x01 é', 'utf8')])
})
