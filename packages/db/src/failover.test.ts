/**
 * A URL with several hosts, as libpq takes it, against a real primary and hot standby that change
 * places: writing pools find the primary and never write to a standby, whatever order the hosts
 * come in and whichever server is primary; a failover costs queries for as long as there is no
 * primary, and a query never waits past a round of the hosts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createSql, type Sql } from './client.ts'
import { isDatabaseUnavailable } from './errors.ts'
import { migrateDatabase } from './migrate.ts'
import { type FailoverPair, findPostgresBinaries, startFailoverPair } from './testing/index.ts'

const binaries = findPostgresBinaries()

let pair: FailoverPair
const pools: Sql[] = []
const pool = (url: string, readsOnly = false) => {
  const sql = createSql(url, { applicationName: 'failover-test', maxConnections: 4, readsOnly })
  pools.push(sql)
  return sql
}

/** The same servers in the other order: the standby first, then the primary. */
const reversed = (url: string) =>
  url.replace(/@([^/]+)\//, (_, hosts: string) => `@${hosts.split(',').reverse().join(',')}/`)
const portOf = (url: string) => Number(new URL(url).port)

beforeAll(async () => {
  if (!binaries) return
  pair = await startFailoverPair(binaries)
  const sql = pool(pair.primaryUrl())
  await sql`create table writes (id serial primary key, at_port int not null)`
}, 60_000)

afterAll(async () => {
  await Promise.all(pools.map((sql) => sql.end({ timeout: 1 }).catch(() => {})))
  await pair?.stop()
})

/** The server of the pair that is not primary now, alone. */
const standbyUrl = () => {
  const primaryPort = portOf(pair.primaryUrl())
  const hosts = /@([^/]+)\//.exec(pair.url)?.[1]?.split(',') ?? []
  const port = hosts.map((host) => Number(host.split(':')[1])).find((p) => p !== primaryPort)
  return pair.primaryUrl().replace(`:${primaryPort}/`, `:${port}/`)
}

/** Inserts `count` rows, each saying which server's port took it; resolves with the errors. */
async function write(sql: Sql, count: number): Promise<unknown[]> {
  const errors: unknown[] = []
  await Promise.all(
    Array.from({ length: count }, () =>
      sql`insert into writes (at_port) values (current_setting('port')::int)`.catch((error) =>
        errors.push(error),
      ),
    ),
  )
  return errors
}

describe.skipIf(!binaries)('several hosts in the URL', () => {
  test('with the standby listed first, every write goes to the primary', async () => {
    const sql = pool(reversed(pair.url))
    expect(await write(sql, 40)).toEqual([])
    const ports = await sql<{ at_port: number }[]>`select distinct at_port from writes`
    expect(ports.map((row) => row.at_port)).toEqual([portOf(pair.primaryUrl())])
  })

  test('a writing pool given only a standby refuses to use it: an outage, said so, never a write', async () => {
    const sql = pool(standbyUrl())
    const error = await sql`select 1`.catch((caught) => caught)
    expect(error.code).toBe('TARGET_SESSION_ATTRS')
    expect(error.message).toContain('read-write')
    expect(isDatabaseUnavailable(error)).toBe(true)
  })

  test('a reading pool (DATABASE_READ_URL) reads from the standby', async () => {
    const sql = pool(standbyUrl(), true)
    const [row] = await sql<{ recovery: boolean }[]>`select pg_is_in_recovery() as recovery`
    expect(row?.recovery).toBe(true)
  })

  test('the primary shut down cleanly and started again, six times under writes: none reaches the standby, none waits for the connect timeout', async () => {
    const sql = pool(pair.url)
    const failures: { code: string; ms: number }[] = []
    let running = true
    const writing = (async () => {
      while (running) {
        await Promise.all(
          Array.from({ length: 3 }, async () => {
            const startedAt = performance.now()
            await sql
              .begin((tx) => tx`insert into writes (at_port) values (current_setting('port')::int)`)
              .catch((error) =>
                failures.push({ code: error.code, ms: performance.now() - startedAt }),
              )
          }),
        )
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    for (let round = 0; round < 6; round++) {
      await pair.stopPrimary('fast')
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      await pair.restartPrimary()
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    running = false
    await writing
    // The standby refuses writes (25006) if one ever reached it; a session started behind a write
    // left over from the last socket never sent its startup and waited out connect_timeout (5 s).
    expect(failures.filter((failure) => failure.code === '25006')).toEqual([])
    expect(failures.filter((failure) => failure.ms > 4_000)).toEqual([])
    expect(failures.every(isDatabaseUnavailable)).toBe(true)
    expect(failures.length).toBeGreaterThan(0)
  }, 60_000)

  test('the queue engine installs and runs through a two-host URL, standby first', async () => {
    const run = await migrateDatabase(reversed(pair.url))
    expect(run.migrations.length).toBeGreaterThan(0)
  }, 60_000)

  test('a failover: no primary is an outage answered at once; then writes reach the new primary, never the old one come back as a standby', async () => {
    const sql = pool(pair.url)
    await sql`truncate writes`
    expect(await write(sql, 20)).toEqual([])
    const oldPort = portOf(pair.primaryUrl())

    await pair.stopPrimary('immediate')
    const startedAt = performance.now()
    const during = await write(sql, 10)
    const waited = performance.now() - startedAt
    // The standby answers, but is not a primary; the old primary refuses: a round of the hosts
    // ends with an error instead of trying them again and again.
    expect(during.length).toBe(10)
    expect(during.every(isDatabaseUnavailable)).toBe(true)
    expect(waited).toBeLessThan(5_000)

    await pair.promoteStandby()
    expect(await write(sql, 20)).toEqual([])
    await pair.rejoinOldPrimary()
    // The old primary is back at its old address, first in the URL, as a standby.
    expect(await write(sql, 40)).toEqual([])
    const newPort = portOf(pair.primaryUrl())
    expect(newPort).not.toBe(oldPort)
    // Synchronous replication: the 20 rows the old primary took survived it.
    const byPort = await sql<{ port: number; rows: number }[]>`
      select at_port as port, count(*)::int as rows from writes group by at_port order by rows`
    expect(Object.fromEntries(byPort.map((row) => [row.port, row.rows]))).toEqual({
      [oldPort]: 20,
      [newPort]: 60,
    })
  }, 120_000)
})
