/**
 * Ingestion, end to end through HTTP: what a deployment is recorded as, and workspaces kept apart.
 */
import { describe, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { list } from '../support/deployment-list.ts'
import { harnessPerFile } from '../support/harness.ts'

const h = harnessPerFile()

describe('recording', () => {
  test('deployedAt defaults to the time the API received the request', async () => {
    const { key } = await h.createKey({ workspace: 'clock' })
    const before = Date.now()
    expect((await h.post(validDeployment({ version: 'no-date' }), { key })).status).toBe(202)
    const after = Date.now()
    await h.drain()
    const [record] = (await list(h, key)).data
    const deployedAt = Date.parse(String(record?.deployedAt))
    expect(deployedAt).toBeGreaterThanOrEqual(before)
    expect(deployedAt).toBeLessThanOrEqual(after)
    expect(record?.deployedAt).toBe(record?.receivedAt)
    expect(Date.parse(String(record?.recordedAt))).toBeGreaterThanOrEqual(deployedAt)
  })

  test('a given deployedAt is kept, and every field round-trips', async () => {
    const { key } = await h.createKey({ workspace: 'roundtrip' })
    const body = validDeployment({
      repositoryFullName: 'Acme/Platform/API',
      version: 'v2026.05.01-3',
      commitHash: 'ABCDEF1234567',
      description: '  Hotfix for checkout  ',
      author: 'Ada Lovelace',
      deployedAt: '2026-05-01T14:00:00+02:00',
      monorepoPath: './services/api/',
    })
    expect((await h.post(body, { key })).status).toBe(202)
    await h.drain()
    const [record] = (await list(h, key)).data
    expect(record).toMatchObject({
      repositoryFullName: 'Acme/Platform/API',
      environment: 'production',
      app: 'checkout',
      version: 'v2026.05.01-3',
      commitHash: 'abcdef1234567',
      description: 'Hotfix for checkout',
      author: 'Ada Lovelace',
      deployedAt: '2026-05-01T12:00:00.000Z',
      monorepoPath: 'services/api',
    })
    expect(String(record?.id)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
  })

  test('names match case-insensitively and keep the first spelling', async () => {
    const { key } = await h.createKey({ workspace: 'names' })
    const spellings = [
      { environment: 'Production', app: 'Checkout', repositoryFullName: 'Acme/Shop' },
      { environment: 'production', app: 'checkout', repositoryFullName: 'acme/shop' },
      { environment: 'PRODUCTION', app: 'CHECKOUT', repositoryFullName: 'ACME/SHOP' },
    ]
    for (const [index, names] of spellings.entries()) {
      const response = await h.post(validDeployment({ ...names, version: `n-${index}` }), { key })
      expect(response.status).toBe(202)
    }
    await h.drain()
    const workspace = await h.sql`
      select (select count(*)::int from environments e join workspaces w on w.id = e.workspace_id where w.slug = 'names') as environments,
             (select count(*)::int from applications a join workspaces w on w.id = a.workspace_id where w.slug = 'names') as applications,
             (select count(*)::int from repositories r join workspaces w on w.id = r.workspace_id where w.slug = 'names') as repositories`
    expect(workspace[0]).toEqual({ environments: 1, applications: 1, repositories: 1 })
    const { data } = await list(h, key)
    expect(data).toHaveLength(3)
    for (const record of data) {
      expect(record).toMatchObject({
        environment: 'Production',
        app: 'Checkout',
        repositoryFullName: 'Acme/Shop',
      })
    }
    expect((await list(h, key, '?environment=pRoDuCtIoN&app=CHECKOUT')).data).toHaveLength(3)
  })

  test('the same app name in two repositories is two applications', async () => {
    const { key } = await h.createKey({ workspace: 'two-repos' })
    await h.post(validDeployment({ repositoryFullName: 'acme/a', app: 'web' }), { key })
    await h.post(validDeployment({ repositoryFullName: 'acme/b', app: 'web' }), { key })
    await h.drain()
    const [row] = await h.sql`
      select count(*)::int as count from applications a join workspaces w on w.id = a.workspace_id where w.slug = 'two-repos'`
    expect(row?.count).toBe(2)
    expect((await list(h, key, '?app=web')).data).toHaveLength(2)
  })

  test('the application keeps the monorepo path of its latest deployment', async () => {
    const { key } = await h.createKey({ workspace: 'monorepo' })
    const post = (monorepoPath: string | undefined, deployedAt: string) =>
      h.post(validDeployment({ monorepoPath, deployedAt, version: deployedAt }), { key })
    await post('apps/new', '2026-03-01T00:00:00Z')
    await post('apps/old', '2026-01-01T00:00:00Z')
    await h.drain()
    await post(undefined, '2026-04-01T00:00:00Z')
    await h.drain()
    const [app] = await h.sql`
      select a.monorepo_path from applications a join workspaces w on w.id = a.workspace_id where w.slug = 'monorepo'`
    expect(app?.monorepo_path).toBe('apps/new')
    const paths = (await list(h, key)).data.map((record) => record.monorepoPath)
    expect(paths).toEqual([null, 'apps/new', 'apps/old'])
  })
})

describe('workspace isolation', () => {
  test('a key reads only its own workspace, and equal names in two workspaces stay apart', async () => {
    const red = await h.createKey({ workspace: 'red' })
    const blue = await h.createKey({ workspace: 'blue' })
    await h.post(validDeployment({ version: 'red-1' }), { key: red.key })
    await h.post(validDeployment({ version: 'red-2' }), { key: red.key })
    await h.post(validDeployment({ version: 'blue-1' }), { key: blue.key })
    await h.drain()
    expect((await list(h, red.key)).data.map((record) => record.version).sort()).toEqual([
      'red-1',
      'red-2',
    ])
    expect((await list(h, blue.key)).data.map((record) => record.version)).toEqual(['blue-1'])
    const [row] = await h.sql`
      select count(distinct a.workspace_id)::int as workspaces from applications a
        join workspaces w on w.id = a.workspace_id where w.slug in ('red', 'blue')`
    expect(row?.workspaces).toBe(2)
  })

  test('an identical deployment in two workspaces is recorded in both', async () => {
    const one = await h.createKey({ workspace: 'twin-one' })
    const two = await h.createKey({ workspace: 'twin-two' })
    const body = validDeployment({ deployedAt: '2026-02-02T02:02:02Z' })
    await h.post(body, { key: one.key })
    await h.post(body, { key: two.key })
    await h.drain()
    expect((await list(h, one.key)).data).toHaveLength(1)
    expect((await list(h, two.key)).data).toHaveLength(1)
  })
})
