import { afterAll, expect, test } from 'bun:test'
import { createSql } from '@shiplog/db/client'
import { loadApiEnv } from './env.ts'
import type { ReadSlots } from './kernel/read-slots.ts'
import { createReadPool } from './read-pool.ts'

// Nothing here connects: postgres.js opens a connection on a pool's first query.
const primary = createSql('postgres://shiplog@127.0.0.1:1/shiplog', { applicationName: 'test' })
afterAll(() => primary.end())

const envWith = (extra: Record<string, string> = {}) =>
  loadApiEnv({
    DATABASE_URL: 'postgres://shiplog@127.0.0.1:1/shiplog',
    DATABASE_POOL_SIZE: '5',
    STATEMENT_TIMEOUT_MS: '100',
    ...extra,
  })

/** How many reads, each from a key of its own, the slots let run at once. */
async function capacity(slots: ReadSlots): Promise<number> {
  let running = 0
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const reads = Array.from({ length: 10 }, (_, index) =>
    slots
      .run(`key-${index}`, async () => {
        running++
        await released
      })
      .catch(() => {}),
  )
  await new Promise((resolve) => setTimeout(resolve, 10))
  const atOnce = running
  release()
  await Promise.all(reads)
  return atOnce
}

test('without DATABASE_READ_URL, reads and receipts share the primary and leave it two connections', async () => {
  const pool = createReadPool(envWith(), primary, 'test')
  expect(pool.readSql).toBe(primary)
  expect(pool.receipts).toBe(pool.reads)
  expect(await capacity(pool.reads)).toBe(3)
  await pool.end()
})

test('with DATABASE_READ_URL, reads get the whole replica pool; receipts keep the primary bound', async () => {
  const pool = createReadPool(
    envWith({ DATABASE_READ_URL: 'postgres://shiplog@127.0.0.1:2/shiplog' }),
    primary,
    'test',
  )
  expect(pool.readSql).not.toBe(primary)
  expect(await capacity(pool.reads)).toBe(5)
  expect(await capacity(pool.receipts)).toBe(3)
  await pool.end()
})

test('DATABASE_READ_URL must be a postgres URL; empty means unset', () => {
  expect(() => envWith({ DATABASE_READ_URL: 'mysql://replica/shiplog' })).toThrow(
    'DATABASE_READ_URL must be a postgres:// or postgresql:// URL',
  )
  expect(envWith({ DATABASE_READ_URL: '' }).DATABASE_READ_URL).toBeUndefined()
})
