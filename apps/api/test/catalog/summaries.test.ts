/** The catalog (applications, environments, the state matrix) of a scripted history. */
import { beforeAll, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { readSuite, recordHistory } from '../support/read-suite.ts'

const r = readSuite()
const { getJson } = r
let ws: string
beforeAll(async () => {
  ws = await recordHistory(r)
  // The latest deployment of `web`, recorded after the rest.
  await r.postDeployment(
    validDeployment({ repositoryFullName: 'acme/web', app: 'web', version: 'pending' }),
    {},
    ws,
  )
  await r.h.drain()
})

test('GET /v1/applications: counts and the latest deployment of each', async () => {
  const { body } = await getJson('/v1/applications', ws)
  expect(body.data).toEqual([
    {
      app: 'api',
      repositoryFullName: 'acme/api',
      monorepoPath: null,
      deploymentCount: 2,
      lastDeployment: expect.objectContaining({
        app: 'api',
        environment: 'production',
        version: '2.1',
        deployedAt: '2026-05-05T08:00:00.000Z',
      }),
    },
    {
      app: 'web',
      repositoryFullName: 'acme/web',
      monorepoPath: null,
      deploymentCount: 4,
      lastDeployment: expect.objectContaining({ version: 'pending' }),
    },
  ])
  expect(
    (await getJson('/v1/applications?repository=acme/API', ws)).body.data.map(
      (a: { app: string }) => a.app,
    ),
  ).toEqual(['api'])
  expect((await getJson('/v1/applications', r.otherKey)).body.data).toEqual([])
})

test('GET /v1/environments: counts and the latest deployment of each', async () => {
  const { body } = await getJson('/v1/environments', ws)
  expect(
    body.data.map((e: { environment: string; deploymentCount: number }) => [
      e.environment,
      e.deploymentCount,
    ]),
  ).toEqual([
    // Pipeline order: staging, then production.
    ['staging', 1],
    ['production', 5],
  ])
  expect(body.data[0].lastDeployment).toMatchObject({ app: 'web', version: '1.1' })
  expect((await getJson('/v1/environments', r.otherKey)).body.data).toEqual([])
})

test('GET /v1/state: what is deployed where', async () => {
  const { body } = await getJson('/v1/state', ws)
  expect(body.environments).toEqual(['staging', 'production'])
  const cells = Object.fromEntries(
    body.rows.map((row: { app: string; cells: ({ version: string } | null)[] }) => [
      row.app,
      row.cells.map((cell) => cell?.version ?? null),
    ]),
  )
  expect(cells).toEqual({ api: [null, '2.1'], web: ['1.1', 'pending'] })
  expect((await getJson('/v1/state', r.otherKey)).body).toEqual({ environments: [], rows: [] })
})

test('every read needs a valid key', async () => {
  for (const path of ['/v1/applications', '/v1/environments', '/v1/state']) {
    expect((await r.h.get(path, { key: null })).status).toBe(401)
  }
})
