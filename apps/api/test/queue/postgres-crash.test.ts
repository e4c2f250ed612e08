/**
 * Postgres crashing in the middle of a drain. The worker commits its batches without waiting for
 * their write-ahead log to reach disk (apps/worker/src/consumer.ts), so a crash may undo the last
 * batches it committed. Each batch takes its deployments out of the inbox in the same
 * transaction, so what a crash undoes is back in the inbox: after a restart every accepted
 * deployment is recorded exactly once and the read model is exact. (Had the worker waited for
 * the flush, the crash would undo nothing: the first assertion after it fails.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createSql } from '@shiplog/db/client'
import { migrateDatabase } from '@shiplog/db/migrate'
import { verifyReadModel } from '@shiplog/db/read-model'
import {
  findPostgresBinaries,
  type OwnPostgres,
  startOwnPostgres,
  TEST_RETRY_POLICY,
  waitFor,
} from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { type Harness, idOf, startHarness } from '../support/harness.ts'

const binaries = findPostgresBinaries()
const DEPLOYMENTS = 2_000
const ENVIRONMENTS = ['production', 'staging']

const hex40 = (n: number) => n.toString(16).padStart(40, '0')

// CI has them (.ci/run fails without them): there, a missing tool fails the test, never skips it.
describe.skipIf(!binaries && process.env.CI !== 'true')(
  'Postgres crashing mid-drain [needs initdb and pg_ctl; skipped outside CI when not installed]',
  () => {
    let server: OwnPostgres
    let h: Harness

    beforeAll(async () => {
      if (!binaries) throw new Error('initdb and pg_ctl are needed: apt-get install postgresql')
      server = await startOwnPostgres(binaries)
      await migrateDatabase(server.url, TEST_RETRY_POLICY)
      // The WAL writer flushes every 200 ms by default, a race with the crash below. Every 10 s,
      // the batches committed last are certainly unflushed when Postgres crashes.
      const admin = createSql(server.url, { applicationName: 'shiplog-test', maxConnections: 1 })
      await admin`alter system set wal_writer_delay = '10s'`
      await admin`select pg_reload_conf()`
      await admin.end()
      // Small batches: many commits, so the crash lands among recent ones.
      const own = { url: server.url, drop: async () => {} }
      h = await startHarness({}, { WORKER_BATCH_SIZE: '20' }, own)
    }, 60_000)

    afterAll(async () => {
      try {
        await h?.close()
      } finally {
        await server?.stop()
      }
    })

    const countOf = async (table: 'deployments' | 'deployment_aliases' | 'deployment_inbox') => {
      const [row] = await h.sql<
        { count: number }[]
      >`select count(*)::int as count from ${h.sql(table)}`
      return row?.count ?? 0
    }

    test('every deployment accepted before the crash is recorded once after the restart, the read model exact', async () => {
      const { key } = await h.createKey({ rateLimitPerMinute: 1_000_000 })
      const receipts: string[] = []
      for (let start = 0; start < DEPLOYMENTS; start += 100) {
        const answers = await Promise.all(
          Array.from({ length: 100 }, (_, offset) => {
            const n = start + offset
            return h.post(
              validDeployment({
                app: `app-${n % 5}`,
                environment: ENVIRONMENTS[n % 2],
                version: `1.0.${n}`,
                commitHash: hex40(n + 1),
                deployedAt: new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString(),
              }),
              { key },
            )
          }),
        )
        for (const answer of answers) {
          expect(answer.status).toBe(202)
          receipts.push(idOf(answer))
        }
      }

      // Crashed just after a batch committed: the last batches' commits are still in Postgres's
      // WAL buffers, which a crash loses.
      let committed = 0
      while (committed < DEPLOYMENTS / 4) committed += await h.worker.consumer.runOnce()
      await server.crash()
      await server.restart()
      await waitFor(
        async () => (await countOf('deployments').catch(() => -1)) >= 0,
        'a connection after the restart',
        10_000,
      )
      const keptByTheCrash = await countOf('deployments')
      expect(keptByTheCrash).toBeLessThan(committed)

      // The pools reconnect on their next query; the rest of the inbox drains.
      await waitFor(
        async () => {
          try {
            await h.drain()
            return (await countOf('deployment_inbox')) === 0
          } catch {
            return false
          }
        },
        'the inbox to drain after the restart',
        30_000,
      ).catch(async (error) => {
        throw new Error(`${(error as Error).message}; logs: ${JSON.stringify(h.logs.slice(-3))}`)
      })

      expect(await countOf('deployments')).toBe(DEPLOYMENTS)
      expect(await countOf('deployment_aliases')).toBe(0)
      const [recorded] = await h.sql<{ count: number }[]>`
        select count(*)::int as count from deployments where id = any(${receipts}::uuid[])`
      expect(recorded?.count).toBe(DEPLOYMENTS)
      const checks = await verifyReadModel(h.sql)
      expect(
        checks.map(({ table, missing, unexpected }) => ({ table, missing, unexpected })),
      ).toEqual(checks.map(({ table }) => ({ table, missing: 0, unexpected: 0 })))
    }, 120_000)
  },
)
