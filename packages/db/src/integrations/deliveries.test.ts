import { expect, test } from 'bun:test'
import { ensureWorkspace } from '../queries/workspaces.ts'
import { databasePerFile } from '../testing/database-per-file.ts'
import {
  forgetOldDeliveries,
  type ReceivedDelivery,
  storeDeliveries,
  takeWaitingDeliveries,
} from './deliveries.ts'
import { createIntegration, deleteIntegration } from './integrations.ts'

const { sql } = databasePerFile({ applicationName: 'deliveries-test', maxConnections: 2 })

const actor = { kind: 'cli' } as const
let serial = 0

async function newIntegration(workspace: string) {
  const { id: workspaceId } = await ensureWorkspace(sql, workspace)
  const integration = await createIntegration(
    sql,
    {
      workspaceId,
      source: 'github',
      name: `hook ${++serial}`,
      mapping: {},
      secret: new Uint8Array([1]),
    },
    actor,
  )
  return { workspaceId, integrationId: integration.id }
}

function delivery(
  owner: { workspaceId: string; integrationId: string },
  body: string,
): ReceivedDelivery {
  const key = `github:1:${++serial}`
  return {
    ...owner,
    receivedAt: new Date(),
    event: 'deployment_status',
    senderDeliveryId: key,
    dedupeKey: key,
    body: new TextEncoder().encode(body),
    headers: { 'x-github-event': 'deployment_status' },
  }
}

const waitingBodies = (integrationId: string) =>
  sql.begin(async (tx) =>
    (await takeWaitingDeliveries(tx, 1_000))
      .filter((taken) => taken.integrationId === integrationId)
      .map((taken) => taken.body),
  )

const countOf = async (integrationId: string) => {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from integration_deliveries
     where integration_id = ${integrationId}`
  return row?.count
}

test('the worker reads each body as it came, small, large (compressed off the event loop) or unicode', async () => {
  const owner = await newIntegration('bodies')
  const large = JSON.stringify({
    commits: Array.from({ length: 9_000 }, (_, n) => ({ id: n.toString(16), message: `fix ${n}` })),
  })
  expect(large.length).toBeGreaterThan(256 * 1024)
  const bodies = ['{"zen":"Keep it logically awesome."}', large, '{"who":"Zoë 🚀 \\u0000"}']
  const stored = await storeDeliveries(
    sql,
    bodies.map((body) => delivery(owner, body)),
  )
  expect(stored.map((one) => one.kind)).toEqual(['new', 'new', 'new'])
  // Kept compressed, not as text: a GitHub delivery shrinks to about a fifth.
  const [sizes] = await sql<{ kept: number; text: number }[]>`
    select sum(octet_length(body_deflated))::int as kept, count(body)::int as text
      from integration_deliveries where integration_id = ${owner.integrationId}`
  expect(sizes?.text).toBe(0)
  expect(sizes?.kept).toBeLessThan(large.length / 4)
  expect(await waitingBodies(owner.integrationId)).toEqual(bodies)
})

test('a delivery stored before bodies were compressed is still read from its text', async () => {
  const owner = await newIntegration('legacy')
  const [row] = await storeDeliveries(sql, [delivery(owner, '{"new":true}')])
  await sql`
    update integration_deliveries set body = '{"stored":"as text"}', body_deflated = null
     where id = ${row?.id ?? ''}::uuid`
  expect(await waitingBodies(owner.integrationId)).toEqual(['{"stored":"as text"}'])
})

test('deleting an integration, or its workspace, deletes its deliveries and no other', async () => {
  const kept = await newIntegration('kept')
  const deleted = await newIntegration('deleted-one')
  const ofWorkspace = await newIntegration('deleted-workspace')
  for (const owner of [kept, deleted, ofWorkspace]) {
    await storeDeliveries(sql, [delivery(owner, '{}'), delivery(owner, '{}')])
  }
  expect(await deleteIntegration(sql, deleted.workspaceId, deleted.integrationId, actor)).toBe(true)
  await sql`delete from workspaces where id = ${ofWorkspace.workspaceId}`
  expect(await countOf(deleted.integrationId)).toBe(0)
  expect(await countOf(ofWorkspace.integrationId)).toBe(0)
  expect(await countOf(kept.integrationId)).toBe(2)
})

test('a delivery stored as its integration was deleted is never taken, and is forgotten', async () => {
  const owner = await newIntegration('raced')
  await deleteIntegration(sql, owner.workspaceId, owner.integrationId, actor)
  // The receiver read the integration before the deletion and stores after it.
  await storeDeliveries(sql, [delivery(owner, '{"late":true}')])
  expect(await countOf(owner.integrationId)).toBe(1)
  const taken = await sql.begin((tx) => takeWaitingDeliveries(tx, 1_000))
  expect(taken.some((one) => one.integrationId === owner.integrationId)).toBe(false)
  await forgetOldDeliveries(sql)
  expect(await countOf(owner.integrationId)).toBe(0)
})
