// Every read query's plan uses the index it was written for, with custom plans and with generic
// ones (plan_cache_mode = force_generic_plan): postgres.js prepares its statements, and after
// five executions Postgres may switch to a generic plan, which knows nothing of the parameters.
// Plans are captured by auto_explain on the test's own connection, as the app runs the queries.
import { beforeAll, describe, expect, test } from 'bun:test'
import { deploymentFrequency } from '../dora/deployment-frequency.ts'
import { perFile } from '../testing/per-file.ts'
import { indexesOf, seqScanned, startPlannedDatabase } from '../testing/planned-database.ts'
import { RARE_ENVIRONMENT } from '../testing/seed-deployments.ts'
import { listApplications, listEnvironments } from './catalog.ts'
import { deploymentMatrix } from './deployment-matrix.ts'
import { type DeploymentFilters, findRecordedDeployment, listDeployments } from './deployments.ts'

const planned = perFile(startPlannedDatabase, 120_000)

const list = (filters: Partial<DeploymentFilters>) => () =>
  listDeployments(planned.sql, { workspaceId: planned.workspaceId, limit: 50, ...filters })

describe.each(['force_custom_plan', 'force_generic_plan'])('with %s', (mode) => {
  // One connection, so the setting holds for every statement of the describe.
  beforeAll(async () => {
    await planned.sql.unsafe(`set plan_cache_mode = ${mode}`)
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
      'deployments_by_environment',
    ],
    [
      'long commit prefix with app',
      () => ({ commitPrefix: 'abcdef0123', appKey: 'svc-0001001' }),
      'deployments_by_commit_prefix',
    ],
  ]
  for (const [name, filters, index] of listings) {
    test(`GET /v1/deployments, ${name}: walks ${index}, no sequential scan of deployments`, async () => {
      const scans = await planned.scansWhile(list(filters()))
      expect(indexesOf(scans)).toContain(index)
      expect(seqScanned(scans)).not.toContain('deployments')
    })
  }

  test('the next page starts where the cursor points, on the same index', async () => {
    const first = await list({})()
    expect(first.next).not.toBeNull()
    const scans = await planned.scansWhile(list({ after: first.next ?? undefined }))
    expect(indexesOf(scans)).toContain('deployments_newest')
    expect(seqScanned(scans)).not.toContain('deployments')
  })

  test('a receipt is one probe of the primary key', async () => {
    const [row] = await planned.seeder<{ id: string }[]>`select id from deployments limit 1`
    const scans = await planned.scansWhile(() =>
      findRecordedDeployment(planned.sql, planned.workspaceId, row?.id ?? ''),
    )
    expect(indexesOf(scans)).toContain('deployments_pkey')
    expect(seqScanned(scans)).not.toContain('deployments')
  })

  const summaries: [string, () => Promise<unknown>][] = [
    ['GET /v1/applications', () => listApplications(planned.sql, planned.workspaceId)],
    [
      'GET /v1/applications?repository=',
      () => listApplications(planned.sql, planned.workspaceId, 'acme/repo-001'),
    ],
    ['GET /v1/environments', () => listEnvironments(planned.sql, planned.workspaceId)],
    ['GET /v1/state', () => deploymentMatrix(planned.sql, planned.workspaceId)],
    [
      'GET /v1/state?repository=',
      () => deploymentMatrix(planned.sql, planned.workspaceId, 'acme/repo-001'),
    ],
  ]
  for (const [name, read] of summaries) {
    test(`${name} reads deployment_cells and never a deployment`, async () => {
      const scans = await planned.scansWhile(read)
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
      const scans = await planned.scansWhile(() =>
        deploymentFrequency(planned.sql, {
          workspaceId: planned.workspaceId,
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
})
