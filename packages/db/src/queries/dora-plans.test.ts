// Every read query's plan uses the index it was written for, with custom plans and with generic
// ones (plan_cache_mode = force_generic_plan): postgres.js prepares its statements, and after
// five executions Postgres may switch to a generic plan, which knows nothing of the parameters.
// Plans are captured by auto_explain on the test's own connection, as the app runs the queries.
// These are the DORA, commits, change-failure and compare reads; the lists are in plans.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Sql } from '../client.ts'
import { findChangeFailures } from '../dora/change-failures.ts'
import { listFirstDeliveries } from '../dora/first-deliveries.ts'
import { doraMetrics } from '../dora/five-keys.ts'
import {
  indexesOf,
  type PlannedDatabase,
  seqScanned,
  startPlannedDatabase,
} from '../testing/planned-database.ts'
import { environmentIds } from './catalog.ts'
import { compareStreams } from './compare.ts'
import { listDeployments } from './deployments.ts'

let planned: PlannedDatabase
let seeder: Sql
let sql: Sql
let workspaceId: string
let scansWhile: PlannedDatabase['scansWhile']

beforeAll(async () => {
  planned = await startPlannedDatabase()
  ;({ seeder, sql, workspaceId, scansWhile } = planned)
}, 120_000)

afterAll(() => planned?.close())

describe.each(['force_custom_plan', 'force_generic_plan'])('with %s', (mode) => {
  // One connection, so the setting holds for every statement of the describe.
  beforeAll(async () => {
    await sql.unsafe(`set plan_cache_mode = ${mode}`)
  })

  const day = 86_400_000
  const iso = (ms: number) => new Date(ms).toISOString()

  const year = 365n * BigInt(day) * 1000n
  // One environment: its failures too, each probed by primary key; two counted together: the
  // same indexes for each.
  const doraReads = [
    {
      name: 'GET /v1/metrics/dora over a year: facts from their window index, later signals from theirs, counts from the rollup, each failure by primary key',
      environmentKeys: ['production'],
      failures: ['deployment_commits_by_sha', 'deployments_pkey'],
    },
    {
      name: 'GET /v1/metrics/dora over a year of two environments together: the same indexes, no sequential scan',
      environmentKeys: ['production', 'staging'],
      failures: [],
    },
  ]
  for (const { name, environmentKeys, failures } of doraReads) {
    test(name, async () => {
      const until = BigInt(Date.now() - (Date.now() % day) - 5 * 3_600_000) * 1000n
      const scans = await scansWhile(() =>
        doraMetrics(sql, {
          workspaceId,
          environmentKeys,
          bucket: 'week',
          since: until - year,
          until,
        }),
      )
      // deployment_dora_facts_signals: the rollbacks and reverts after the window's end, which
      // may name a failure inside it.
      for (const index of [
        'deployment_dora_facts_window',
        'deployment_dora_facts_signals',
        'deployment_counts_pkey',
        ...failures,
      ]) {
        expect(indexesOf(scans)).toContain(index)
      }
      for (const table of ['deployments', 'deployment_dora_facts', 'deployment_commits']) {
        expect(seqScanned(scans)).not.toContain(table)
      }
    })
  }

  test('GET /v1/commits, a page of a year: facts by their window index, commits by SHA, no sequential scan', async () => {
    const until = Date.now() - 5 * 3_600_000
    const ids = await environmentIds(sql, workspaceId, ['production'])
    // delivered_before's probes run as statements of their own: shown too, for this test only.
    await sql.unsafe('set auto_explain.log_nested_statements = on')
    const scans = await scansWhile(() =>
      listFirstDeliveries(
        sql,
        {
          workspaceId,
          environmentIds: ids,
          since: iso(until - 365 * day),
          until: iso(until),
        },
        50,
      ),
    ).finally(() => sql.unsafe('reset auto_explain.log_nested_statements'))
    expect(indexesOf(scans)).toContain('deployment_dora_facts_window')
    expect(indexesOf(scans)).toContain('deployment_commits_by_sha')
    for (const table of ['deployments', 'deployment_dora_facts', 'deployment_commits']) {
      expect(seqScanned(scans)).not.toContain(table)
    }
  })

  test('the change failures of a page of 50 deployments: index probes only', async () => {
    const page = await listDeployments(sql, {
      workspaceId,
      limit: 50,
      environmentKey: 'production',
    })
    const scans = await scansWhile(() =>
      findChangeFailures(
        sql,
        page.records.map((deployment) => deployment.id),
      ),
    )
    expect(indexesOf(scans)).toContain('deployment_dora_facts_rollback_target')
    expect(indexesOf(scans)).toContain('deployment_commits_reverted')
    for (const table of ['deployments', 'deployment_dora_facts', 'deployment_commits']) {
      expect(seqScanned(scans)).not.toContain(table)
    }
  })

  test('GET /v1/compare: a walk of the stream, then probes per commit by SHA, no sequential scan', async () => {
    const [stream] = await seeder<{ applicationId: string; fromId: string; toId: string }[]>`
      select a.id::text as "applicationId", f.id::text as "fromId", t.id::text as "toId"
        from applications a, environments f, environments t
       where a.workspace_id = ${workspaceId} and a.name_key = 'svc-0001001'
         and f.workspace_id = ${workspaceId} and f.name_key = 'staging'
         and t.workspace_id = ${workspaceId} and t.name_key = 'production'`
    if (!stream) throw new Error('the seeded workspace has no svc-0001001, staging, production')
    // delivered_before's probes run as statements of their own: shown too, for this test only.
    await sql.unsafe('set auto_explain.log_nested_statements = on')
    const scans = await scansWhile(() =>
      compareStreams(sql, stream, { walk: 100, commits: 1000 }),
    ).finally(() => sql.unsafe('reset auto_explain.log_nested_statements'))
    for (const index of [
      'deployments_unique_delivery',
      'deployments_by_commit_prefix',
      'deployment_commits_by_sha',
      'deployment_commit_lists_pkey',
      'deployment_commits_pkey',
    ]) {
      expect(indexesOf(scans)).toContain(index)
    }
    for (const table of ['deployments', 'deployment_commits', 'deployment_commit_lists']) {
      expect(seqScanned(scans)).not.toContain(table)
    }
  })
})
