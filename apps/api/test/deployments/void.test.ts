import { beforeAll, expect, test } from 'bun:test'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { readModelMatches, verifyReadModel } from '@shiplog/db/read-model'
import { validDeployment } from '@shiplog/schema/testing'
import fc from 'fast-check'
import { harnessPerFile } from '../support/harness.ts'

// DELETE /v1/deployments/{id} voids a recorded deployment: kept for audit, shown as voided by its
// receipt, gone from lists, the state matrix, the counts and the change types of its neighbours,
// with the read model exact after every step.

const h = harnessPerFile()
let admin: string
beforeAll(async () => {
  admin = (await issueApiKey(h.sql, { workspace: 'acme', name: 'operator', scopes: ['admin'] })).key
})

const C1 = 'c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1'
const C2 = 'c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2'

const deploy = (version: string, commitHash: string, deployedAt: string) =>
  h.deploy(validDeployment({ version, commitHash, deployedAt }))

const voidIt = (id: string, body?: unknown, key = admin) =>
  h.send('DELETE', `/v1/deployments/${id}`, { key, ...(body === undefined ? {} : { body }) })

async function expectExactReadModel() {
  expect(readModelMatches(await verifyReadModel(h.sql))).toBe(true)
}

test('a voided deployment leaves lists, state, counts and its neighbours’ change types', async () => {
  const v1 = await deploy('v1', C1, '2026-05-01T10:00:00Z')
  const v2 = await deploy('v2', C2, '2026-05-02T10:00:00Z')
  const v3 = await deploy('v3', C1, '2026-05-03T10:00:00Z')
  expect((await voidIt(v3)).status).toBe(409) // still queued
  await h.drain()
  const types = async () => {
    const page = await (await h.get('/v1/deployments?environment=production')).json()
    return Object.fromEntries(
      page.data.map((each: { version: string; changeType: string }) => [
        each.version,
        each.changeType,
      ]),
    )
  }
  expect(await types()).toEqual({ v1: 'initial', v2: 'forward', v3: 'rollback' })

  const voided = await voidIt(v2, { reason: 'deployed to the wrong cluster' })
  expect(voided.status).toBe(200)
  const receipt = await voided.json()
  expect(receipt).toMatchObject({
    id: v2,
    status: 'voided',
    changeType: null,
    voided: { reason: 'deployed to the wrong cluster', keyName: 'operator' },
  })
  expect(receipt.voided.keyPrefix).toBe(admin.slice(0, 16))
  expect(await (await h.get(`/v1/deployments/${v2}`)).json()).toEqual(receipt)
  // v3 now follows v1 directly, with the same commit.
  expect(await types()).toEqual({ v1: 'initial', v3: 'redeploy' })
  await expectExactReadModel()

  // Voiding the latest: the state cell falls back to the one before, counts drop.
  expect((await voidIt(v3)).status).toBe(200)
  const state = await (await h.get('/v1/state')).json()
  expect(state.rows[0].cells[state.environments.indexOf('production')]).toMatchObject({ id: v1 })
  const applications = await (await h.get('/v1/applications')).json()
  expect(applications.data[0].deploymentCount).toBe(1)
  const frequency = await (
    await h.get(
      '/v1/metrics/deployment-frequency?environment=production&since=2026-05-01T00:00:00Z&until=2026-05-04T00:00:00Z',
    )
  ).json()
  expect(frequency.totals).toEqual([1, 0, 0])
  await expectExactReadModel()

  // Again: nothing changes. The rest of the workspace's history is untouched.
  const again = await (await voidIt(v3)).json()
  expect(again.voided.at).toBe((await (await h.get(`/v1/deployments/${v3}`)).json()).voided.at)
  await deploy('v4', C2, '2026-05-04T10:00:00Z')
  await h.drain()
  expect(await types()).toEqual({ v1: 'initial', v4: 'forward' })
  await expectExactReadModel()
  // Voiding the only deployment of a cell removes the cell.
  expect((await voidIt(v1)).status).toBe(200)
  await expectExactReadModel()
})

test('voiding needs the admin scope, a known id and a reason that is text', async () => {
  const id = await deploy('v9', C1, '2026-06-01T10:00:00Z')
  await h.drain()
  expect((await voidIt(id, undefined, h.defaultKey)).status).toBe(403)
  expect((await voidIt('01890a5d-ac96-774b-bcce-b302099a8057')).status).toBe(404)
  const bad = await voidIt(id, { reason: 7, why: 'x' })
  expect(bad.status).toBe(422)
  expect((await bad.json()).errors.map((each: { field: string }) => each.field)).toEqual([
    'reason',
    'why',
  ])
  expect((await voidIt(id)).status).toBe(200)
})

test('property: no DELETE a client can send gets anything but its receipt or a 4xx problem', async () => {
  const recorded = await deploy('v-fuzz', C2, '2026-07-01T10:00:00Z')
  await h.drain()
  const { key } = await issueApiKey(h.sql, {
    workspace: 'acme',
    name: 'fuzzing operator',
    scopes: ['admin'],
    rateLimitPerMinute: 1_000_000,
  })
  const anyValue = fc.oneof(
    fc.string({ maxLength: 600 }),
    fc.constant(null),
    fc.integer(),
    fc.jsonValue(),
  )
  const body = fc.oneof(
    fc.constant(undefined),
    fc.record({ reason: anyValue }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
    fc.dictionary(fc.string(), anyValue).map((value) => JSON.stringify(value)),
    fc.string({ unit: 'binary', maxLength: 50 }),
  )
  const id = fc.oneof(fc.constant(recorded), fc.uuid(), fc.string({ maxLength: 40 }))
  await fc.assert(
    fc.asyncProperty(id, body, async (target, raw) => {
      const response = await h.send('DELETE', `/v1/deployments/${encodeURIComponent(target)}`, {
        key,
        ...(raw === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, rawBody: raw }),
      })
      const answer = await response.json()
      if (response.status === 200) {
        expect(answer).toMatchObject({ id: recorded, status: 'voided' })
        return
      }
      expect({ target, raw, status: [404, 413, 422].includes(response.status) }).toEqual({
        target,
        raw,
        status: true,
      })
      expect(answer.status).toBe(response.status)
    }),
    { numRuns: 200 },
  )
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
  expect(readModelMatches(await verifyReadModel(h.sql))).toBe(true)
})
