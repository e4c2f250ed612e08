/** Reads, end to end through HTTP: the filters of the listing, the summaries and the metrics. */
import { beforeAll, describe, expect, test } from 'bun:test'
import { validDeployment } from '../harness.ts'
import { readSuite } from './suite.ts'

const r = readSuite()
const { getJson, postDeployment } = r

describe('queries', () => {
  let ws: string
  beforeAll(async () => {
    ws = (await r.h.createKey({ workspace: 'queries', rateLimitPerMinute: 100_000 })).key
    const deployments = [
      {
        repositoryFullName: 'acme/web',
        app: 'web',
        environment: 'production',
        version: '1.0',
        commitHash: 'aaaa111',
        deployedAt: '2026-05-01T10:00:00Z',
      },
      {
        repositoryFullName: 'acme/web',
        app: 'web',
        environment: 'staging',
        version: '1.1',
        commitHash: 'bbbb222',
        deployedAt: '2026-05-02T10:00:00Z',
      },
      {
        repositoryFullName: 'acme/web',
        app: 'web',
        environment: 'production',
        version: '1.1',
        commitHash: 'bbbb222',
        deployedAt: '2026-05-03T10:00:00Z',
      },
      {
        repositoryFullName: 'acme/api',
        app: 'api',
        environment: 'production',
        version: '2.0',
        commitHash: 'cccc333',
        deployedAt: '2026-05-03T12:00:00Z',
      },
      {
        repositoryFullName: 'acme/api',
        app: 'api',
        environment: 'production',
        version: '2.1',
        commitHash: 'dddd444',
        deployedAt: '2026-05-05T08:00:00Z',
      },
    ]
    for (const deployment of deployments) await postDeployment(deployment, {}, ws)
    await r.h.drain()
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
    [
      '?since=2026-05-02T00:00:00Z&until=2026-05-04T00:00:00Z&environment=production',
      ['2.0', '1.1'],
    ],
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
    for (const path of [
      '/v1/applications',
      '/v1/environments',
      '/v1/state',
      '/v1/metrics/deployment-frequency?environment=x',
    ]) {
      expect((await r.h.get(path, { key: null })).status).toBe(401)
    }
  })
})
