/** GET /v1/metrics/deployment-frequency on a scripted history: per day, per week, refusals. */
import { beforeAll, expect, test } from 'bun:test'
import { readSuite, recordHistory } from '../support/read-suite.ts'

const r = readSuite()
const { getJson } = r
let ws: string
beforeAll(async () => {
  ws = await recordHistory(r)
})

test('deployment frequency per UTC day, zero-filled, per application', async () => {
  const { status, body } = await getJson(
    '/v1/metrics/deployment-frequency?environment=Production&since=2026-05-01T00:00:00Z&until=2026-05-06T00:00:00Z',
    ws,
  )
  expect(status).toBe(200)
  expect(body.buckets).toEqual([
    '2026-05-01T00:00:00.000Z',
    '2026-05-02T00:00:00.000Z',
    '2026-05-03T00:00:00.000Z',
    '2026-05-04T00:00:00.000Z',
    '2026-05-05T00:00:00.000Z',
  ])
  expect(body.applications).toEqual([
    { app: 'api', repositoryFullName: 'acme/api', counts: [0, 0, 1, 0, 1] },
    { app: 'web', repositoryFullName: 'acme/web', counts: [1, 0, 1, 0, 0] },
  ])
  expect(body.totals).toEqual([1, 0, 2, 0, 1])
})

test('deployment frequency per ISO week (from Monday)', async () => {
  const { body } = await getJson(
    '/v1/metrics/deployment-frequency?environment=production&bucket=week&since=2026-04-27T00:00:00Z&until=2026-05-11T00:00:00Z',
    ws,
  )
  expect(body.buckets).toEqual(['2026-04-27T00:00:00.000Z', '2026-05-04T00:00:00.000Z'])
  expect(body.totals).toEqual([3, 1])
  const empty = await getJson(
    '/v1/metrics/deployment-frequency?environment=production&bucket=week&since=2026-04-27T00:00:00Z&until=2026-05-11T00:00:00Z',
    r.otherKey,
  )
  expect(empty.body).toMatchObject({ applications: [], totals: [0, 0] })
})

test.each([
  ['', 'environment'],
  ['?environment=production&bucket=month', 'bucket'],
  ['?environment=production&since=2026-05-02T00:00:00Z&until=2026-05-01T00:00:00Z', 'since'],
  ['?environment=production&since=2020-01-01T00:00:00Z&until=2026-01-01T00:00:00Z', 'since'],
])('deployment frequency %s is a 422 naming %s', async (query, field) => {
  const { status, body } = await getJson(`/v1/metrics/deployment-frequency${query}`, ws)
  expect(status).toBe(422)
  expect(body.errors.map((error: { field: string }) => error.field)).toContain(field)
})

test('every read needs a valid key', async () => {
  const path = '/v1/metrics/deployment-frequency?environment=x'
  expect((await r.h.get(path, { key: null })).status).toBe(401)
})
