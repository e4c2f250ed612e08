import { afterAll, beforeAll, expect, test } from 'bun:test'
import {
  allPages,
  sha,
  startAuditedHistory,
  WEB_URL,
  WINDOWS,
} from '../../support/audited-history.ts'
import { csvRecords } from '../../support/csv.ts'
import type { Harness } from '../../support/harness.ts'

// GET /v1/commits lists what change lead time counted: its count is the figure's sample, and
// the figure's median is the median of its lead times.

let h: Harness
let key: string
let ids: Map<string, string>
beforeAll(async () => {
  ;({ h, key, ids } = await startAuditedHistory('lead-times'))
}, 60_000)
afterAll(() => h?.close())

interface Delivery {
  sha: string
  deploymentId: string
  app: string
  environment: string
  deployedAt: string
  committedAt: string
  leadTimeSeconds: number
  subject: string | null
  author: string | null
  url: string | null
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length / 2
  if (sorted.length === 0) return null
  return Number.isInteger(middle)
    ? ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
    : (sorted[Math.floor(middle)] as number)
}

const SCOPES = [
  ['environment=production', 'environment=production'],
  ['environment=production&app=checkout', 'environment=production&app=checkout'],
  ['environment=eu-production', 'environment=eu-production'],
  ['environment=staging&repository=acme/shop', 'environment=staging&repository=acme/shop'],
  ['', 'production=true'],
  ['app=search', 'production=true&app=search'],
] as const

for (const [since, until] of WINDOWS) {
  for (const [doraScope, listScope] of SCOPES) {
    test(`${listScope} from ${since} to ${until}: the list is the lead-time sample`, async () => {
      const window = `since=${since}&until=${until}`
      const response = await h.get(`/v1/metrics/dora?${doraScope}&${window}`, { key })
      expect(response.status).toBe(200)
      const { changeLeadTime } = await response.json()
      const listed = await allPages<Delivery>(h, key, `/v1/commits?${listScope}&${window}`, 2)
      expect(listed.length).toBe(changeLeadTime.commits)
      expect(median(listed.map((d) => d.leadTimeSeconds))).toBe(changeLeadTime.medianSeconds)
      const deliveries = listed.map((d) => `${d.deploymentId} ${d.sha}`)
      expect(new Set(deliveries).size).toBe(deliveries.length)
      const csv = await h.get(`/v1/commits?${listScope}&${window}`, {
        key,
        headers: { accept: 'text/csv' },
      })
      expect(csv.status).toBe(200)
      const rows = csvRecords(await csv.text())
      expect(rows).toEqual(
        listed.map((d) =>
          Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v === null ? null : String(v)])),
        ),
      )
    })
  }
}

test('production in the second week, worked out by hand: what each first delivered, and how long it took', async () => {
  const listed = await allPages<Delivery>(
    h,
    key,
    '/v1/commits?environment=production&since=2026-04-06&until=2026-04-13',
  )
  // v5 lists commits 3 and 4, but 3 was first delivered by v3: only 4 counts. v7 (a redeploy)
  // delivered nothing new.
  expect(listed.map((d): unknown[] => [d.deploymentId, d.sha, d.leadTimeSeconds / 3600])).toEqual([
    [ids.get('v9'), sha(7), 3],
    [ids.get('v8'), sha(6), 30],
    [ids.get('v6'), sha(5), 1],
    [ids.get('v5'), sha(4), 2],
  ])
  const v8 = listed[1] as Delivery
  expect(v8).toMatchObject({
    app: 'checkout',
    environment: 'production',
    deployedAt: '2026-04-10T10:00:00.000Z',
    committedAt: '2026-04-09T04:00:00.000Z',
    subject: 'Change 6',
    author: 'Ada',
    url: `${WEB_URL}/commit/${sha(6)}`,
  })
  expect((listed[0] as Delivery).subject).toBeNull()
})

test('bad parameters: 422 naming each; a CSV refuses paging', async () => {
  const response = await h.get('/v1/commits?cursor=abc&production=yes&limit=0', { key })
  expect(response.status).toBe(422)
  const fields = (await response.json()).errors.map((e: { field: string }) => e.field).sort()
  expect(fields).toEqual(['cursor', 'limit', 'production'])
  const csv = await h.get('/v1/commits?limit=5', { key, headers: { accept: 'text/csv' } })
  expect(csv.status).toBe(422)
})

test('another workspace sees none of them', async () => {
  const { key: other } = await h.createKey({ workspace: 'elsewhere' })
  const response = await h.get('/v1/commits?since=2026-04-01&until=2026-05-01', { key: other })
  expect(await response.json()).toEqual({ data: [], nextCursor: null })
})
