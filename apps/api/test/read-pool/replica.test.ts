/**
 * DATABASE_READ_URL end to end: writes go to a real primary, the read endpoints answer from a
 * real streaming replica of it, receipts stay right while the replica lags, and a replica outage
 * costs reads, not writes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createSql, processApplicationName, type Sql } from '@shiplog/db/client'
import { migrateDatabase } from '@shiplog/db/migrate'
import {
  findPostgresBinaries,
  type StreamingReplica,
  startStreamingReplica,
  TEST_RETRY_POLICY,
} from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { CONTRACT_FIELDS, type Harness, startHarness } from '../support/harness.ts'
import { sampleOf } from '../support/prometheus.ts'

const binaries = findPostgresBinaries()

const FREQUENCY =
  '/v1/metrics/deployment-frequency?environment=production&since=2026-05-01T00:00:00Z&until=2026-05-08T00:00:00Z'
/** Every read endpoint that answers from the read pool. */
const READS = ['/v1/deployments', '/v1/applications', '/v1/environments', '/v1/state', FREQUENCY]

const at = (day: number, hour = 10) => `2026-05-0${day}T${String(hour).padStart(2, '0')}:00:00Z`
const SEED = (
  [
    ['web', 'production', '1.0', 'aaaa111', at(1)],
    ['web', 'staging', '1.1', 'bbbb222', at(2)],
    ['web', 'production', '1.1', 'bbbb222', at(3)],
    ['api', 'production', '2.0', 'cccc333', at(3, 12)],
  ] as const
).map(([app, environment, version, commitHash, deployedAt]) =>
  validDeployment({
    repositoryFullName: `acme/${app}`,
    app,
    environment,
    version,
    commitHash,
    deployedAt,
  }),
)

// CI has them (.ci/run fails without them): there, a missing tool fails the test, never skips it.
describe.skipIf(!binaries && process.env.CI !== 'true')(
  'reads on a streaming replica [needs initdb, pg_ctl and pg_basebackup; skipped outside CI when not installed]',
  () => {
    let cluster: StreamingReplica
    let h: Harness
    let replica: Sql
    let key: string

    beforeAll(async () => {
      if (!binaries)
        throw new Error('initdb, pg_ctl and pg_basebackup are needed: apt-get install postgresql')
      cluster = await startStreamingReplica(binaries)
      await migrateDatabase(cluster.primaryUrl, TEST_RETRY_POLICY)
      const primary = { url: cluster.primaryUrl, drop: async () => {} }
      h = await startHarness({ DATABASE_READ_URL: cluster.replicaUrl }, {}, primary)
      replica = createSql(cluster.replicaUrl, {
        applicationName: 'shiplog-test',
        maxConnections: 1,
        readsOnly: true,
      })
      key = (await h.createKey({ workspace: 'replicated', rateLimitPerMinute: 100_000 })).key
    }, 60_000)

    afterAll(async () => {
      await replica?.end({ timeout: 1 }).catch(() => {})
      try {
        await h?.close()
      } finally {
        await cluster?.stop()
      }
    })

    async function getJson(path: string, withKey = key) {
      const response = await h.get(path, { key: withKey })
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        body: await response.json(),
      }
    }

    async function post(body: Record<string, unknown>, withKey = key) {
      const response = await h.post(body, { key: withKey })
      expect(response.status).toBe(202)
      return response.headers.get('location') as string
    }

    // One at a time: a key may run only READ_CONCURRENCY_PER_KEY reads at once.
    async function readAll(withKey = key) {
      const answers = []
      for (const path of READS) answers.push(await getJson(path, withKey))
      return answers
    }

    // The worker writes to the primary; the replica shows it once it has replayed that WAL.
    async function recordAndReplay() {
      await h.drain()
      await cluster.waitForReplay()
    }

    async function withReplayPaused(run: () => Promise<void>) {
      await replica`select pg_wal_replay_pause()`
      try {
        await run()
      } finally {
        await replica`select pg_wal_replay_resume()`
      }
    }

    const versions = async (query: string, withKey = key) =>
      (await getJson(`/v1/deployments${query}`, withKey)).body.data.map(
        (item: { version: string }) => item.version,
      )

    test('every read endpoint answers from the replica what the worker wrote to the primary', async () => {
      for (const deployment of SEED) await post(deployment)
      await recordAndReplay()
      expect(await h.deploymentCount()).toBe(SEED.length)

      const page = await getJson('/v1/deployments')
      expect(page.body.nextCursor).toBeNull()
      expect(page.body.data.map((item: { version: string }) => item.version)).toEqual([
        '2.0',
        '1.1',
        '1.1',
        '1.0',
      ])
      for (const item of page.body.data) {
        expect(Object.keys(item)).toEqual(expect.arrayContaining([...CONTRACT_FIELDS]))
        expect(item).toMatchObject({ status: 'recorded', duplicateOf: null, failure: null })
      }
      expect(await versions('?repository=ACME/WEB&environment=production')).toEqual(['1.1', '1.0'])
      const first = await getJson('/v1/deployments?limit=3')
      const rest = await versions(`?limit=3&cursor=${first.body.nextCursor}`)
      expect(rest).toEqual(['1.0'])

      const applications = (await getJson('/v1/applications')).body.data
      expect(
        applications.map(
          (a: { app: string; deploymentCount: number; lastDeployment: { version: string } }) => [
            a.app,
            a.deploymentCount,
            a.lastDeployment.version,
          ],
        ),
      ).toEqual([
        ['api', 1, '2.0'],
        ['web', 3, '1.1'],
      ])
      const environments = (await getJson('/v1/environments')).body.data
      expect(
        environments.map((e: { environment: string; deploymentCount: number }) => [
          e.environment,
          e.deploymentCount,
        ]),
      ).toEqual([
        ['staging', 1],
        ['production', 3],
      ])
      const state = (await getJson('/v1/state')).body
      expect(state.environments).toEqual(['staging', 'production'])
      expect(
        state.rows.map((row: { app: string; cells: ({ version: string } | null)[] }) => [
          row.app,
          row.cells.map((cell) => cell?.version ?? null),
        ]),
      ).toEqual([
        ['api', [null, '2.0']],
        ['web', ['1.1', '1.1']],
      ])
      const frequency = (await getJson(FREQUENCY)).body
      expect(frequency.totals).toEqual([1, 0, 2, 0, 0, 0, 0])
      expect(frequency.applications).toEqual([
        { app: 'api', repositoryFullName: 'acme/api', counts: [0, 0, 1, 0, 0, 0, 0] },
        { app: 'web', repositoryFullName: 'acme/web', counts: [1, 0, 1, 0, 0, 0, 0] },
      ])

      // The reads above ran on the replica, through the API's own pool.
      const [seen] = await replica<{ count: number }[]>`
        select count(*)::int as count from pg_stat_activity
         where application_name = ${processApplicationName('shiplog-api')}`
      expect(seen?.count).toBeGreaterThan(0)
      expect(sampleOf((await h.api.scrape()).body, 'shiplog_db_read_connections')).toBeGreaterThan(
        0,
      )
    })

    test('while replay is paused, reads lag behind the primary but the receipt says recorded', async () => {
      const before = await readAll()
      let location = ''
      await withReplayPaused(async () => {
        location = await post(
          validDeployment({ repositoryFullName: 'acme/late', app: 'late', deployedAt: at(6) }),
        )
        await h.drain()
        expect(await h.deploymentCount()).toBe(SEED.length + 1)
        expect(await readAll()).toEqual(before)
        // Not on the replica yet, so the receipt finds the row on the primary.
        expect((await getJson(location)).body).toMatchObject({ status: 'recorded', app: 'late' })
      })
      await cluster.waitForReplay()
      const after = await readAll()
      after.forEach((answer, index) => {
        expect(answer.status).toBe(200)
        expect(answer).not.toEqual(before[index])
      })
      expect(await versions('?app=late')).toEqual(['1.2.3'])
      expect((await getJson(location)).body.status).toBe('recorded')
    })

    test('a receipt fetched right after its 202 is never a 404 while the replica lags', async () => {
      const own = (await h.createKey({ workspace: 'receipts', rateLimitPerMinute: 100_000 })).key
      await withReplayPaused(async () => {
        const locations: string[] = []
        for (let index = 0; index < 10; index++) {
          const location = await post(
            validDeployment({ app: 'receipt', version: `r${index}` }),
            own,
          )
          locations.push(location)
          expect((await getJson(location, own)).body.status).toBe('queued')
        }
        // The queue lives on the primary: its listing is current although replay is paused.
        expect(await versions('?status=queued', own)).toHaveLength(10)
        h.worker.consumer.start()
        // Polled while the worker records them: queued, then recorded, never anything else.
        const seen = new Set<string>()
        let allRecorded = false
        try {
          for (let round = 0; round < 500 && !allRecorded; round++) {
            allRecorded = true
            for (const location of locations) {
              const receipt = await getJson(location, own)
              seen.add(`${receipt.status} ${receipt.body.status}`)
              if (receipt.body.status !== 'recorded') allRecorded = false
            }
          }
        } finally {
          await h.worker.consumer.stop()
        }
        expect([...seen].filter((s) => s !== '200 queued' && s !== '200 recorded')).toEqual([])
        expect(allRecorded).toBe(true)
        // Recorded on the primary, not replayed yet: the listing, from the replica, has none.
        expect(await versions('?app=receipt', own)).toEqual([])
      })
      await cluster.waitForReplay()
      expect(await versions('?app=receipt', own)).toHaveLength(10)
    }, 30_000)

    test('with the replica down, reads answer 503 while writes get 202 and /readyz stays 200', async () => {
      const recordedBefore = await h.deploymentCount()
      await cluster.stopReplica()
      for (const answer of await readAll()) {
        expect(answer.status).toBe(503)
        expect(answer.type).toBe('application/problem+json')
        expect(answer.body).toMatchObject({ status: 503, type: '/problems/unavailable' })
      }
      const location = await post(validDeployment({ app: 'during-outage' }))
      // The receipt asks the replica first, so it is a read like the others.
      expect((await getJson(location)).status).toBe(503)
      expect(await versions('?status=queued')).toEqual(['1.2.3'])
      expect((await h.get('/readyz', { key: null })).status).toBe(200)
      await h.drain()
      expect(await h.deploymentCount()).toBe(recordedBefore + 1)
    })
  },
)
