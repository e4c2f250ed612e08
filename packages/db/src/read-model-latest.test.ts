import { describe, expect, test } from 'bun:test'
import { instantFromMicros } from '@shiplog/schema'
import type { Tx } from './client.ts'
import type { DeploymentJob } from './deployment-job.ts'
import { recordDeployments } from './queries/record-deployments.ts'
import { COMMITS } from './testing/delivery-runs.ts'
import { heldOpen, untilWaitingOnLock } from './testing/held-transactions.ts'
import { DAY_MICROS, expectExact } from './testing/read-model-recount.ts'
import { emptyRecordedTables, microsOf, toJob } from './testing/recorded-jobs.ts'
import { twoWorkspacesPerFile } from './testing/two-workspaces.ts'

// The latest deployment of each cell (deployment_cells, packages/db/sql/03_read_model.sql) follows
// (deployedAt, id) whatever order deployments arrive in, one batch or two transactions at once.

const files = twoWorkspacesPerFile({ applicationName: 'read-model-test', maxConnections: 6 })
const { sql } = files

const record = (jobs: DeploymentJob[]) =>
  sql.begin((tx: Tx) => recordDeployments(tx, jobs)) as Promise<number>

describe('the latest deployment of a cell', () => {
  const id = (last: string) => `00000000-0000-7000-8000-${last.padStart(12, '0')}`

  async function latestOf(environment: string) {
    const [row] = await sql<{ count: number; id: string; at: string; version: string }[]>`
      select c.deployment_count::int as count, c.latest_id::text as id,
             iso_utc(c.latest_deployed_at) as at, c.latest_version as version
        from deployment_cells c join environments e on e.id = c.environment_id
       where e.name_key = ${environment}`
    return row
  }

  // Each case in its own environment; the instants are where the numbering turns over.
  for (const [environment, instant] of [
    ['production', '2026-05-04T00:00:00Z'],
    ['staging', '1969-12-29T00:00:00Z'],
    ['dev', '0001-01-01T00:00:00.000001Z'],
  ] as const) {
    test(`follows (deployedAt, id), ties in deployedAt included (${instant})`, async () => {
      await emptyRecordedTables(sql)
      const t = microsOf(instant)
      const deploy = (last: string, micros: bigint, version: string) =>
        toJob(
          id(last),
          {
            workspace: 0,
            repository: 'acme/shop',
            app: 'api',
            environment,
            version,
            commitHash: COMMITS[0] as string,
            at: micros,
          },
          files.workspaceIds,
        )
      const iso = (micros: bigint) => instantFromMicros(micros).iso
      const expectLatest = async (count: number, last: string, micros: bigint, version: string) => {
        expect(await latestOf(environment)).toEqual({
          count,
          id: id(last),
          at: iso(micros),
          version,
        })
        await expectExact(sql)
      }

      await record([deploy('b', t, 'b')])
      await expectLatest(1, 'b', t, 'b')
      // The same instant, a lower id: not later.
      await record([deploy('a', t, 'a')])
      await expectLatest(2, 'b', t, 'b')
      // The same instant, a higher id: later.
      await record([deploy('c', t, 'c')])
      await expectLatest(3, 'c', t, 'c')
      // An older deployment with the highest id yet (a backfill): not later.
      await record([deploy('f', t - 1n, 'f')])
      await expectLatest(4, 'c', t, 'c')
      // Two in one batch at the same instant, 1 µs later: the higher id wins.
      await record([deploy('e', t + 1n, 'e'), deploy('1', t + 1n, '1')])
      await expectLatest(6, 'e', t + 1n, 'e')
      // The same deployment again under another id: an alias, nothing changes.
      await record([deploy('ff', t + 1n, 'e')])
      await expectLatest(6, 'e', t + 1n, 'e')
      // Two in one batch, the later one with the lower id, and a tie with the latest.
      await record([deploy('0', t + 2n, '0'), deploy('d', t + 1n, 'd')])
      await expectLatest(8, '0', t + 2n, '0')
    })
  }

  test('two transactions writing one cell at once: the second waits for the first, then adds to it', async () => {
    await emptyRecordedTables(sql)
    const t = microsOf('2026-05-04T00:00:00Z')
    const deploy = (last: string, micros: bigint) =>
      toJob(
        id(last),
        {
          workspace: 1,
          repository: 'acme/infra',
          app: 'web',
          environment: 'production',
          version: last,
          commitHash: COMMITS[1] as string,
          at: micros,
        },
        files.workspaceIds,
      )
    await record([deploy('1', t - DAY_MICROS)])
    const [cell] = await sql<{ applicationId: string; environmentId: string }[]>`
      select application_id::text as "applicationId", environment_id::text as "environmentId"
        from deployment_cells`
    // Raw inserts, as a SQL import would: only the trigger keeps the model.
    const insert = (tx: Tx, rows: { last: string; micros: bigint }[]) => tx`
      insert into deployments (id, workspace_id, application_id, environment_id, version,
                               commit_hash, deployed_at, received_at)
      select r.id, ${files.workspaceIds[1]}, ${cell?.applicationId ?? ''}, ${cell?.environmentId ?? ''},
             r.version, ${COMMITS[1] as string}, r.at::timestamptz, now()
        from unnest(${rows.map(({ last }) => id(last))}::uuid[], ${rows.map(({ last }) => last)}::text[],
                    ${rows.map(({ micros }) => instantFromMicros(micros).iso)}::text[]) as r(id, version, at)`
    const first = heldOpen(sql, (tx) =>
      insert(tx, [
        { last: 'b', micros: t },
        { last: '2', micros: t - 2n * DAY_MICROS },
      ]),
    )
    await first.started
    const second = sql.begin(async (tx) => {
      await insert(tx, [
        { last: 'c', micros: t },
        { last: '3', micros: t - 40n * DAY_MICROS },
      ])
    })
    // Wait until the second transaction is blocked on the first one's rows of the model.
    await untilWaitingOnLock(sql)
    first.release()
    await Promise.all([first.done, second])
    expect(await latestOf('production')).toEqual({
      count: 5,
      id: id('c'),
      at: instantFromMicros(t).iso,
      version: 'c',
    })
    await expectExact(sql)
  })
})
