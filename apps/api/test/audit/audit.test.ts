import { beforeAll, expect, test } from 'bun:test'
import { issueApiKey, revokeKey } from '@shiplog/db/issue-api-key'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

// GET /v1/audit: who changed the record (voids, incidents, keys), written with each change,
// newest first, paged and filtered like every list, for admins of the workspace only.

const h = harnessPerFile()
let admin: { key: string; prefix: string; id: string }
let deploymentId: string
let incidentId: string

beforeAll(async () => {
  admin = await issueApiKey(h.sql, { workspace: 'acme', name: 'operator', scopes: ['admin'] })
  deploymentId = await h.deploy(validDeployment())
  await h.drain()
  const send = (method: string, path: string, body: unknown) =>
    h.send(method, path, { key: admin.key, body })
  expect(
    (await send('DELETE', `/v1/deployments/${deploymentId}`, { reason: 'a test' })).status,
  ).toBe(200)
  // Voiding again changes nothing, so it records nothing.
  expect((await send('DELETE', `/v1/deployments/${deploymentId}`, {})).status).toBe(200)
  const opened = await send('POST', '/v1/incidents', { environment: 'production', title: 'Down' })
  incidentId = (await opened.json()).id
  // A change refused (resolved before it started) records nothing either.
  const resolvedAt = '2000-01-01T00:00:00Z'
  expect((await send('PATCH', `/v1/incidents/${incidentId}`, { resolvedAt })).status).toBe(422)
  expect(
    (await send('PATCH', `/v1/incidents/${incidentId}`, { title: 'Checkout down' })).status,
  ).toBe(200)
}, 60_000)

const audit = async (query = '', key = admin.key) => {
  const response = await h.get(`/v1/audit${query}`, { key })
  return { status: response.status, body: await response.json() }
}
const byKey = (name: string, prefix: string) => ({
  type: 'key',
  name,
  email: null,
  keyPrefix: prefix,
})

test('each change is listed once, newest first, naming the key that made it', async () => {
  const { status, body } = await audit()
  expect(status).toBe(200)
  const operator = byKey('operator', admin.prefix)
  expect(
    body.data.map(({ action, targetId, actor, details }: Record<string, unknown>) => ({
      action,
      targetId,
      actor,
      details,
    })),
  ).toEqual([
    {
      action: 'incident.changed',
      targetId: incidentId,
      actor: operator,
      details: { title: 'Checkout down' },
    },
    {
      action: 'incident.opened',
      targetId: incidentId,
      actor: operator,
      details: { title: 'Down', environment: 'production', app: null },
    },
    {
      action: 'deployment.voided',
      targetId: deploymentId,
      actor: operator,
      details: { reason: 'a test' },
    },
    {
      action: 'key.created',
      targetId: admin.id,
      actor: { type: 'cli', name: null, email: null, keyPrefix: null },
      details: { name: 'operator', prefix: admin.prefix, scopes: ['admin'] },
    },
    expect.objectContaining({ action: 'key.created' }),
  ])
  expect(body.nextCursor).toBeNull()
})

test('keys revoked are recorded too; filters combine; pages follow their cursor', async () => {
  const spare = await issueApiKey(h.sql, { workspace: 'acme', name: 'spare' })
  expect(await revokeKey(h.sql, spare.id)).toBe(true)
  expect(await revokeKey(h.sql, spare.id)).toBe(false)
  const revoked = await audit(`?action=key.revoked&targetId=${spare.id}`)
  expect(revoked.body.data).toMatchObject([
    {
      action: 'key.revoked',
      actor: { type: 'cli' },
      details: { name: 'spare', prefix: spare.prefix },
    },
  ])
  expect((await audit(`?actor=${admin.prefix}`)).body.data).toHaveLength(3)
  expect((await audit(`?actor=${admin.prefix}&action=incident.opened`)).body.data).toHaveLength(1)
  expect((await audit('?since=2099-01-01T00:00:00Z')).body.data).toEqual([])
  expect((await audit('?until=2000-01-01T00:00:00Z')).body.data).toEqual([])

  const all = (await audit()).body.data.map((event: { id: string }) => event.id)
  const paged: string[] = []
  let query = '?limit=2'
  for (;;) {
    const { body } = await audit(query)
    paged.push(...body.data.map((event: { id: string }) => event.id))
    if (body.nextCursor === null) break
    query = `?limit=2&cursor=${body.nextCursor}`
  }
  expect(paged).toEqual(all)
})

test('only admins read it, and only their workspace’s', async () => {
  const reader = await h.createKey({ scopes: ['read'] })
  const { status, body } = await audit('', reader.key)
  expect(status).toBe(403)
  expect(body.detail).toContain('needs admin')
  const elsewhere = await issueApiKey(h.sql, { workspace: 'beta', name: 'b', scopes: ['admin'] })
  const theirs = (await audit('', elsewhere.key)).body.data
  expect(theirs.map((event: { targetId: string }) => event.targetId)).toEqual([elsewhere.id])
  expect((await audit('?action=deployment.deleted')).status).toBe(422)
  expect((await audit('?targetId=42')).status).toBe(422)
})
