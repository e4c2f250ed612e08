import { afterAll, beforeAll, expect, test } from 'bun:test'
import { allPages, startAuditedHistory, WINDOWS } from '../../support/audited-history.ts'
import { csvRecords } from '../../support/csv.ts'
import type { Harness } from '../../support/harness.ts'

// Every DORA figure that counts deployments is the count of a list of GET /v1/deployments with
// the same window and filters (docs/dora.md): all pages summed, for several windows.

let h: Harness
let key: string
let ids: Map<string, string>
beforeAll(async () => {
  ;({ h, key, ids } = await startAuditedHistory('audited'))
}, 60_000)
afterAll(() => h?.close())

interface Listed {
  id: string
  version: string
  changeType: string
  changeFailure: unknown
}

async function dora(query: string) {
  const response = await h.get(`/v1/metrics/dora?${query}`, { key })
  expect(response.status).toBe(200)
  return response.json()
}

const versions = (rows: Listed[]) => rows.map((row) => row.version).sort()

const SCOPES = [
  ['environment=production', 'environment=production'],
  ['environment=production&app=checkout', 'environment=production&app=checkout'],
  ['environment=eu-production', 'environment=eu-production'],
  ['environment=staging', 'environment=staging'],
  // All production together: the figures without an environment, the lists of production=true.
  ['', 'production=true'],
  ['repository=acme/shop', 'production=true&repository=acme/shop'],
] as const

for (const [since, until] of WINDOWS) {
  for (const [doraScope, scope] of SCOPES) {
    test(`${scope} from ${since} to ${until}: the lists' counts are the figures`, async () => {
      const window = `${scope}&since=${since}&until=${until}`
      const figures = await dora(`${doraScope}&since=${since}&until=${until}`)
      const list = (filters: string) =>
        allPages<Listed>(h, key, `/v1/deployments?${window}${filters}`)
      const [all, failed, failedChanges, changes, rework, notFailed, notRework] = await Promise.all(
        [
          list(''),
          list('&failed=true'),
          list('&failed=true&changeType=change'),
          list('&changeType=change'),
          list('&rework=true'),
          list('&failed=false'),
          list('&rework=false'),
        ],
      )
      expect({
        deployments: all.length,
        failed: failedChanges.length,
        changes: changes.length,
        failedAll: failed.length,
        rework: rework.length,
      }).toEqual({
        deployments: figures.deploymentFrequency.deployments,
        failed: figures.changeFailRate.failed,
        changes: figures.changeFailRate.deployments,
        failedAll:
          figures.failedDeploymentRecoveryTime.recoveries +
          figures.failedDeploymentRecoveryTime.open,
        rework: figures.deploymentReworkRate.rework,
      })
      // The filters split the list, and agree with what each item says of itself.
      expect(versions([...failed, ...notFailed])).toEqual(versions(all))
      expect(versions([...rework, ...notRework])).toEqual(versions(all))
      expect(failed.every((row) => row.changeFailure !== null)).toBe(true)
      expect(notFailed.every((row) => row.changeFailure === null)).toBe(true)
      expect(failedChanges.every((row) => ['initial', 'forward'].includes(row.changeType))).toBe(
        true,
      )
    })
  }
}

test('the month of production, worked out by hand', async () => {
  const window = 'environment=production&app=checkout&since=2026-04-01&until=2026-05-01'
  const list = async (filters: string) =>
    versions(await allPages<Listed>(h, key, `/v1/deployments?${window}${filters}`))
  // v3 (rolled back by v4), v5 (its commit reverted by v6), v8 (incident fixed by v9), v10
  // (incident, open), v11 (rolled back by v12); and a redeploy and two rollbacks that failed:
  // v7 (an incident names it), v12 (rolled back by v13), v13 (rolled back by v14).
  expect(await list('&failed=true&changeType=change')).toEqual(['v10', 'v11', 'v3', 'v5', 'v8'])
  expect(await list('&failed=true')).toEqual(['v10', 'v11', 'v12', 'v13', 'v3', 'v5', 'v7', 'v8'])
  expect(await list('&rework=true')).toEqual(['v12', 'v13', 'v14', 'v4', 'v6', 'v9'])
  expect(await list('&failed=true&rework=true')).toEqual(['v12', 'v13'])
  expect(ids.size).toBeGreaterThan(0)
})

test('the CSV export takes the same filters', async () => {
  const window = 'environment=production&since=2026-04-01&until=2026-05-01&failed=true'
  const response = await h.get(`/v1/deployments?${window}`, {
    key,
    headers: { accept: 'text/csv' },
  })
  expect(response.status).toBe(200)
  const rows = csvRecords(await response.text())
  const listed = await allPages<Listed>(h, key, `/v1/deployments?${window}`)
  expect(rows.map((row) => row.id)).toEqual(listed.map((row) => row.id))
})

test('production=false lists the other environments; production with environment, both must hold', async () => {
  const window = 'since=2026-04-01&until=2026-05-01'
  const others = await allPages<Listed & { environment: string }>(
    h,
    key,
    `/v1/deployments?${window}&production=false`,
  )
  expect(new Set(others.map((row) => row.environment))).toEqual(new Set(['staging']))
  const both = await allPages<Listed>(
    h,
    key,
    `/v1/deployments?${window}&production=true&environment=staging`,
  )
  expect(both).toEqual([])
})

test('failed, rework and production are refused for deployments not yet recorded, and take true or false', async () => {
  const response = await h.get(
    '/v1/deployments?status=queued&failed=true&rework=false&production=true',
    { key },
  )
  expect(response.status).toBe(422)
  const body = await response.json()
  expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'failed',
    'production',
    'rework',
  ])
  const bad = await h.get('/v1/deployments?failed=yes', { key })
  expect(bad.status).toBe(422)
  expect((await bad.json()).errors[0].message).toBe('must be one of true, false')
})
