import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createShiplogClient, ShiplogError, ShiplogNetworkError } from '../src/index.ts'
import { type LiveApi, startLiveApi, validDeployment } from './live-api.ts'

// The client's incidents against a running Shiplog: opened, resolved, read back, never sent twice.

let live: LiveApi
let key: string

beforeAll(async () => {
  live = await startLiveApi()
  key = await live.createKey()
}, 60_000)

afterAll(async () => {
  await live?.close()
})

describe('incidents', () => {
  test('opened with the deployment that caused it (whose commits are stored), resolved, read back and listed', async () => {
    const writer = await live.createKey({
      workspace: 'client-incidents',
      scopes: ['deployments:write', 'incidents:write', 'read'],
    })
    const client = createShiplogClient({ baseUrl: live.url, apiKey: writer })
    const created = await client.createDeployment(
      validDeployment({ version: 'bad', deployedAt: '2026-05-04T10:00:00Z' }),
    )
    await client.waitUntilRecorded(created.id, { intervalMs: 100, timeoutMs: 20_000 })
    const opened = await client.openIncident({
      environment: 'production',
      title: 'Checkout returns 500s',
      causeDeploymentId: created.id,
    })
    expect(opened).toMatchObject({
      status: 'open',
      startedAt: '2026-05-04T10:00:00.000Z',
      causeDeploymentId: created.id,
    })
    const commits = [
      {
        sha: 'a'.repeat(40),
        committedAt: '2026-05-04T09:00:00.000Z',
        authoredAt: '2026-05-04T08:00:00.000Z',
        reverts: [],
      },
    ]
    await client.putDeploymentCommits(created.id, { commits })
    expect(await client.getDeploymentCommits(created.id)).toEqual({
      deploymentId: created.id,
      truncated: false,
      webUrl: null,
      commits,
    })
    const resolved = await client.changeIncident(opened.id, { resolvedAt: '2026-05-04T11:00:00Z' })
    expect(resolved.status).toBe('resolved')
    expect(await client.getIncident(opened.id)).toEqual(resolved)
    const page = await client.listIncidents({ status: 'resolved', since: new Date('2026-05-01') })
    expect(page.data.map((incident) => incident.id)).toEqual([opened.id])

    // The default scopes do not open incidents: a 403 ShiplogError, not retried.
    const pipeline = createShiplogClient({ baseUrl: live.url, apiKey: key })
    const refused = await pipeline
      .openIncident({ environment: 'production', title: 'x' })
      .catch((caught) => caught)
    expect(refused).toBeInstanceOf(ShiplogError)
    expect(refused.status).toBe(403)
  }, 30_000)

  test('opening is not sent again after a network failure, which may hide that it was done', async () => {
    const slept: number[] = []
    const client = createShiplogClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: key,
      maxRetries: 3,
      sleep: async (ms) => void slept.push(ms),
    })
    const error = await client
      .openIncident({ environment: 'production', title: 'x' })
      .catch((caught) => caught)
    expect(error).toBeInstanceOf(ShiplogNetworkError)
    expect(error.message).toContain('in 1 attempt')
    expect(slept).toEqual([])
  })
})
