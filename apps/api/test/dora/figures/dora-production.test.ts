import { afterAll, beforeAll, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { startAuditedHistory, WINDOWS } from '../../support/audited-history.ts'
import { csvRecords } from '../../support/csv.ts'
import type { Harness } from '../../support/harness.ts'

// GET /v1/metrics/dora without an environment: every production environment of the workspace
// counted together, and the answer names them.

let h: Harness
let key: string
beforeAll(async () => {
  ;({ h, key } = await startAuditedHistory('production-together'))
}, 60_000)
afterAll(() => h?.close())

async function dora(query: string, as = key) {
  const response = await h.get(`/v1/metrics/dora?${query}`, { key: as })
  return { status: response.status, body: await response.json() }
}

type Figures = Record<string, Record<string, number | null>>
const COUNTS: [string, string][] = [
  ['deploymentFrequency', 'deployments'],
  ['changeLeadTime', 'commits'],
  ['changeFailRate', 'failed'],
  ['changeFailRate', 'deployments'],
  ['failedDeploymentRecoveryTime', 'recoveries'],
  ['failedDeploymentRecoveryTime', 'open'],
  ['deploymentReworkRate', 'rework'],
]
const countsOf = (f: Figures) => COUNTS.map(([k, c]) => f[k]?.[c])

for (const [since, until] of WINDOWS) {
  test(`from ${since} to ${until}: the counts are those of each production environment added up`, async () => {
    const window = `since=${since}&until=${until}`
    const together = await dora(window)
    expect(together.status).toBe(200)
    expect(together.body.environments).toEqual(['eu-production', 'production'])
    expect(together.body.environment).toBe('eu-production, production')
    const eu = await dora(`environment=eu-production&${window}`)
    const production = await dora(`environment=production&${window}`)
    const added = countsOf(eu.body).map((n, i) => Number(n) + Number(countsOf(production.body)[i]))
    expect(countsOf(together.body)).toEqual(added)
    together.body.series.forEach((bucket: Figures, index: number) => {
      const sum = countsOf(eu.body.series[index]).map(
        (n, i) => Number(n) + Number(countsOf(production.body.series[index])[i]),
      )
      expect(countsOf(bucket)).toEqual(sum)
    })
  })
}

test('a median over the environments together is the median of all their lead times', async () => {
  // Lead times first delivered in April (hours): production 5, 7, 2, 1, 30, 3, 50, 4 and search
  // 9, 12 (after its initial); eu-production 60, 100. The median of those 12 is (7 + 9) / 2 h.
  const { body } = await dora('since=2026-04-01&until=2026-05-01')
  expect(body.changeLeadTime.commits).toBe(12)
  expect(body.changeLeadTime.medianSeconds).toBe(8 * 3600)
})

test('an app filter applies across the environments', async () => {
  const { body } = await dora('app=search&since=2026-04-01&until=2026-05-01')
  const single = await dora('environment=production&app=search&since=2026-04-01&until=2026-05-01')
  expect(countsOf(body)).toEqual(countsOf(single.body))
})

test('which environments are production is as set: marking staging moves it in', async () => {
  const { key: operator } = await h.createKey({
    workspace: 'production-marked',
    scopes: ['deployments:write', 'read', 'admin'],
  })
  for (const [environment, version] of [
    ['staging', '1'],
    ['live', '2'],
  ]) {
    const response = await h.post(validDeployment({ environment, version }), { key: operator })
    expect(response.status).toBe(202)
  }
  await h.drain()
  expect((await dora('', operator)).body.environments).toEqual(['live'])
  const put = await h.send('PUT', '/v1/environments/staging', {
    key: operator,
    body: { production: true },
  })
  expect(put.status).toBe(200)
  const both = await dora('', operator)
  expect(both.body.environments).toEqual(['staging', 'live'])
  expect(both.body.deploymentFrequency.deployments).toBe(2)
})

test('a request naming its environment answers as it always did: no environments field', async () => {
  const { body } = await dora('environment=production&since=2026-04-01&until=2026-05-01')
  expect(body.environment).toBe('production')
  expect('environments' in body).toBe(false)
})

test('a workspace without production environments: 404 saying how to get one', async () => {
  const { key: other } = await h.createKey({ workspace: 'no-production' })
  expect((await h.post(validDeployment({ environment: 'staging' }), { key: other })).status).toBe(
    202,
  )
  await h.drain()
  const { status, body } = await dora('', other)
  expect(status).toBe(404)
  expect(body.detail).toContain('PUT /v1/environments/{name}')
})

test('Accept: text/csv answers the series, one line per bucket, as the JSON has it', async () => {
  for (const query of [
    'since=2026-04-01&until=2026-05-01',
    'environment=production&since=2026-04-06&until=2026-04-20&bucket=day',
  ]) {
    const json = await dora(query)
    const response = await h.get(`/v1/metrics/dora?${query}`, {
      key,
      headers: { accept: 'text/csv' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/csv')
    const rows = csvRecords(await response.text())
    expect(rows).toEqual(
      json.body.series.map((bucket: Figures & { start: string }) => {
        const row: Record<string, string | null> = { start: bucket.start }
        for (const [figure, fields] of Object.entries(bucket)) {
          if (figure === 'start') continue
          for (const [field, value] of Object.entries(fields as Record<string, number | null>)) {
            row[`${figure}.${field}`] = value === null ? null : String(value)
          }
        }
        return row
      }),
    )
    expect(rows.length).toBe(json.body.series.length)
  }
  const bad = await h.get('/v1/metrics/dora?environment=nowhere', {
    key,
    headers: { accept: 'text/csv' },
  })
  expect(bad.status).toBe(404)
  expect(bad.headers.get('content-type')).toStartWith('application/problem+json')
})
