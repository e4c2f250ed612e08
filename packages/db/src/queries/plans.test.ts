// Every read query's plan uses the index it was written for, with custom plans and with generic
// ones (plan_cache_mode = force_generic_plan): postgres.js prepares its statements, and after
// five executions Postgres may switch to a generic plan, which knows nothing of the parameters.
// Plans are captured by auto_explain on the test's own connection, as the app runs the queries.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type postgres from 'postgres'
import { createSql, type Sql } from '../client.ts'
import { findChangeFailures } from '../dora/change-failures.ts'
import { deploymentFrequency } from '../dora/deployment-frequency.ts'
import { listFirstDeliveries } from '../dora/first-deliveries.ts'
import { doraMetrics } from '../dora/metrics.ts'
import { seedCommits } from '../testing/seed-commits.ts'
import { RARE_ENVIRONMENT, seedDeployments } from '../testing/seed-deployments.ts'
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts'
import { environmentIds, listApplications, listEnvironments } from './catalog.ts'
import { compareStreams } from './compare.ts'
import { deploymentMatrix } from './deployment-matrix.ts'
import { type DeploymentFilters, findRecordedDeployment, listDeployments } from './deployments.ts'
import { ensureWorkspace } from './workspaces.ts'

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  Plans?: PlanNode[]
}

/** A scan of a plan: what it read and how. */
interface Scan {
  node: string
  relation?: string
  index?: string
}

let database: TestDatabase
let seeder: Sql
let sql: Sql
let workspaceId: string
const notices: postgres.Notice[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  seeder = createSql(database.url, { applicationName: 'plans-seed', maxConnections: 1 })
  workspaceId = (await ensureWorkspace(seeder, 'plans')).id
  await seedDeployments(seeder, {
    workspaceId,
    deployments: 20_000,
    repositories: 5,
    applicationsPerRepository: 10,
    days: 400,
    chunk: 5_000,
  })
  // Commit lists too, with their reverts, so the DORA facts are as large as the deployments.
  await seedCommits(seeder, { workspaceId, perDeployment: 5 })
  await seeder`vacuum analyze`
  sql = createSql(database.url, {
    applicationName: 'plans',
    maxConnections: 1,
    settings: {
      session_preload_libraries: 'auto_explain',
      'auto_explain.log_min_duration': '0',
      'auto_explain.log_format': 'json',
      client_min_messages: 'log',
    },
    onNotice: (notice) => notices.push(notice),
  })
}, 120_000)

afterAll(async () => {
  await sql?.end()
  await seeder?.end()
  await database?.drop()
})

function scansOf(node: PlanNode): Scan[] {
  const own: Scan[] = node['Relation Name']
    ? [{ node: node['Node Type'], relation: node['Relation Name'], index: node['Index Name'] }]
    : node['Index Name']
      ? [{ node: node['Node Type'], index: node['Index Name'] }]
      : []
  return [...own, ...(node.Plans ?? []).flatMap(scansOf)]
}

/** Runs a read and returns every scan of every statement it sent, from auto_explain's log. */
async function scansWhile(read: () => Promise<unknown>): Promise<Scan[]> {
  notices.length = 0
  await read()
  const plans = notices
    .map((notice) => String(notice.message))
    .filter((message) => message.includes('plan:'))
    .map((message) => JSON.parse(message.slice(message.indexOf('{'))) as { Plan: PlanNode })
  expect(plans.length).toBeGreaterThan(0)
  return plans.flatMap((plan) => scansOf(plan.Plan))
}

const indexesOf = (scans: Scan[]) => new Set(scans.map((scan) => scan.index).filter(Boolean))
const seqScanned = (scans: Scan[]) =>
  scans.filter((scan) => scan.node === 'Seq Scan').map((scan) => scan.relation)

const list = (filters: Partial<DeploymentFilters>) => () =>
  listDeployments(sql, { workspaceId, limit: 50, ...filters })

describe.each(['force_custom_plan', 'force_generic_plan'])('with %s', (mode) => {
  // One connection, so the setting holds for every statement of the describe.
  beforeAll(async () => {
    await sql.unsafe(`set plan_cache_mode = ${mode}`)
  })

  const day = 86_400_000
  const iso = (ms: number) => new Date(ms).toISOString()

  const listings: [string, () => Partial<DeploymentFilters>, string][] = [
    ['no filter', () => ({}), 'deployments_newest'],
    [
      'since and until',
      () => ({ since: iso(Date.now() - 200 * day), until: iso(Date.now() - 190 * day) }),
      'deployments_newest',
    ],
    ['environment', () => ({ environmentKey: 'production' }), 'deployments_by_environment'],
    [
      'rare environment',
      () => ({ environmentKey: RARE_ENVIRONMENT }),
      'deployments_by_environment',
    ],
    ['app', () => ({ appKey: 'svc-0001001' }), 'deployments_unique_delivery'],
    [
      'app and environment',
      () => ({ appKey: 'svc-0001001', environmentKey: 'production' }),
      'deployments_unique_delivery',
    ],
    ['repository', () => ({ repositoryKey: 'acme/repo-001' }), 'deployments_unique_delivery'],
    ['version', () => ({ version: '1.5.3' }), 'deployments_by_version'],
    ['commit prefix', () => ({ commitPrefix: 'abcd' }), 'deployments_by_commit_prefix'],
    [
      'change type rollback',
      () => ({ changeType: 'rollback' }),
      'deployment_dora_facts_change_type',
    ],
    [
      'change type initial with app',
      () => ({ changeType: 'initial', appKey: 'svc-0001001' }),
      'deployment_dora_facts_change_type',
    ],
    [
      'change type forward with environment',
      () => ({ changeType: 'forward', environmentKey: 'production' }),
      'deployments_by_environment',
    ],
    [
      'failed in an environment',
      () => ({ failed: true, environmentKey: 'production' }),
      'deployment_dora_facts_signals',
    ],
    ['rework', () => ({ rework: true }), 'deployment_dora_facts_signals'],
    [
      'not failed, in an environment',
      () => ({ failed: false, environmentKey: 'production' }),
      'deployments_by_environment',
    ],
    [
      'changes in an environment',
      () => ({ changeType: 'change', environmentKey: 'production' }),
      'deployments_by_environment',
    ],
    [
      'a set of environments (production=true)',
      () => ({ environmentKeys: ['production', RARE_ENVIRONMENT] }),
      'deployments_unique_delivery',
    ],
    [
      'long commit prefix with app',
      () => ({ commitPrefix: 'abcdef0123', appKey: 'svc-0001001' }),
      'deployments_by_commit_prefix',
    ],
  ]
  for (const [name, filters, index] of listings) {
    test(`GET /v1/deployments, ${name}: walks ${index}, no sequential scan of deployments`, async () => {
      const scans = await scansWhile(list(filters()))
      expect(indexesOf(scans)).toContain(index)
      expect(seqScanned(scans)).not.toContain('deployments')
    })
  }

  test('the next page starts where the cursor points, on the same index', async () => {
    const first = await list({})()
    expect(first.next).not.toBeNull()
    const scans = await scansWhile(list({ after: first.next ?? undefined }))
    expect(indexesOf(scans)).toContain('deployments_newest')
    expect(seqScanned(scans)).not.toContain('deployments')
  })

  test('a receipt is one probe of the primary key', async () => {
    const [row] = await seeder<{ id: string }[]>`select id from deployments limit 1`
    const scans = await scansWhile(() => findRecordedDeployment(sql, workspaceId, row?.id ?? ''))
    expect(indexesOf(scans)).toContain('deployments_pkey')
    expect(seqScanned(scans)).not.toContain('deployments')
  })

  const summaries: [string, () => Promise<unknown>][] = [
    ['GET /v1/applications', () => listApplications(sql, workspaceId)],
    ['GET /v1/applications?repository=', () => listApplications(sql, workspaceId, 'acme/repo-001')],
    ['GET /v1/environments', () => listEnvironments(sql, workspaceId)],
    ['GET /v1/state', () => deploymentMatrix(sql, workspaceId)],
    ['GET /v1/state?repository=', () => deploymentMatrix(sql, workspaceId, 'acme/repo-001')],
  ]
  for (const [name, read] of summaries) {
    test(`${name} reads deployment_cells and never a deployment`, async () => {
      const scans = await scansWhile(read)
      expect(scans.map((scan) => scan.relation)).toContain('deployment_cells')
      expect(
        scans.filter(
          (scan) => scan.relation === 'deployments' || scan.index?.startsWith('deployments_'),
        ),
      ).toEqual([])
    })
  }

  const windows: [string, 'day' | 'week', number][] = [
    ['400 days', 'day', 400],
    ['260 weeks', 'week', 260 * 7],
  ]
  for (const [name, bucket, days] of windows) {
    test(`deployment frequency over ${name}: whole buckets from deployment_counts_pkey, part-days from deployments_by_environment`, async () => {
      // Not at midnight, so both ends are part-days.
      const until = BigInt(Date.now() - (Date.now() % day) - 5 * 3_600_000) * 1000n
      const since = until - BigInt(days) * BigInt(day) * 1000n + 7_200_000_000n
      const scans = await scansWhile(() =>
        deploymentFrequency(sql, {
          workspaceId,
          environmentKey: 'production',
          bucket,
          since,
          until,
        }),
      )
      expect(indexesOf(scans)).toContain('deployment_counts_pkey')
      expect(indexesOf(scans)).toContain('deployments_by_environment')
      expect(seqScanned(scans)).not.toContain('deployments')
      expect(seqScanned(scans)).not.toContain('deployment_counts')
    })
  }

  const year = 365n * BigInt(day) * 1000n
  test('GET /v1/metrics/dora over a year: facts from their window index, later signals from theirs, counts from the rollup, each failure by primary key', async () => {
    const until = BigInt(Date.now() - (Date.now() % day) - 5 * 3_600_000) * 1000n
    const scans = await scansWhile(() =>
      doraMetrics(sql, {
        workspaceId,
        environmentKeys: ['production'],
        bucket: 'week',
        since: until - year,
        until,
      }),
    )
    expect(indexesOf(scans)).toContain('deployment_dora_facts_window')
    // The rollbacks and reverts after the window's end, which may name a failure inside it.
    expect(indexesOf(scans)).toContain('deployment_dora_facts_signals')
    expect(indexesOf(scans)).toContain('deployment_counts_pkey')
    expect(indexesOf(scans)).toContain('deployment_commits_by_sha')
    expect(indexesOf(scans)).toContain('deployments_pkey')
    for (const table of ['deployments', 'deployment_dora_facts', 'deployment_commits']) {
      expect(seqScanned(scans)).not.toContain(table)
    }
  })

  test('GET /v1/metrics/dora over a year of two environments together: the same indexes, no sequential scan', async () => {
    const until = BigInt(Date.now() - (Date.now() % day) - 5 * 3_600_000) * 1000n
    const scans = await scansWhile(() =>
      doraMetrics(sql, {
        workspaceId,
        environmentKeys: ['production', 'staging'],
        bucket: 'week',
        since: until - year,
        until,
      }),
    )
    expect(indexesOf(scans)).toContain('deployment_dora_facts_window')
    expect(indexesOf(scans)).toContain('deployment_dora_facts_signals')
    expect(indexesOf(scans)).toContain('deployment_counts_pkey')
    for (const table of ['deployments', 'deployment_dora_facts', 'deployment_commits']) {
      expect(seqScanned(scans)).not.toContain(table)
    }
  })

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
    const page = await list({ environmentKey: 'production' })()
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
