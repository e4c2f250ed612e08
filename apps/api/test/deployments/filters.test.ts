/** The filters of GET /v1/deployments, end to end through HTTP, on a scripted history. */
import { beforeAll, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { readSuite, recordHistory } from '../support/read-suite.ts'

const r = readSuite()
const { getJson, postDeployment } = r
let ws: string
beforeAll(async () => {
  ws = await recordHistory(r)
})

const versions = async (query: string, withKey?: string) =>
  (await getJson(`/v1/deployments${query}`, withKey ?? ws)).body.data.map(
    (item: { version: string }) => item.version,
  )

test.each([
  ['?repository=ACME/WEB', ['1.1', '1.1', '1.0']],
  ['?version=1.1', ['1.1', '1.1']],
  ['?commitHash=BBBB', ['1.1', '1.1']],
  ['?since=2026-05-03T00:00:00Z', ['2.1', '2.0', '1.1']],
  ['?until=2026-05-03T00:00:00Z', ['1.1', '1.0']],
  ['?since=2026-05-02T00:00:00Z&until=2026-05-04T00:00:00Z&environment=production', ['2.0', '1.1']],
  ['?status=recorded&app=api', ['2.1', '2.0']],
  ['?status=queued', []],
])('GET /v1/deployments%s', async (query, expected) => {
  expect(await versions(query)).toEqual(expected)
})

test('queued deployments are listed with status=queued until the worker records them', async () => {
  await postDeployment(
    validDeployment({ repositoryFullName: 'acme/web', app: 'web', version: 'pending' }),
    {},
    ws,
  )
  expect(await versions('?status=queued')).toEqual(['pending'])
  expect(await versions('?status=queued', r.otherKey)).toEqual([])
  await r.h.drain()
  expect(await versions('?status=queued')).toEqual([])
})

test.each([['?status=lost'], ['?since=yesterday'], ['?commitHash=xyz'], ['?version=']])(
  'GET /v1/deployments%s is a 422',
  async (query) => {
    expect((await getJson(`/v1/deployments${query}`, ws)).status).toBe(422)
  },
)
