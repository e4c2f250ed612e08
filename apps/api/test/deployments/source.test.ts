/** Where a deployment came from (`source`), end to end through HTTP: queued, then recorded. */
import { expect, test } from 'bun:test'
import { refuseVersion } from '@shiplog/db/testing'
import { validDeployment } from '@shiplog/schema/testing'
import { readSuite } from '../support/read-suite.ts'

const r = readSuite()

// What packages/client/src/transport.ts sends, written out here rather than imported.
const CLIENT = { 'user-agent': 'shiplog-client' }

/** The receipt of `location`, and the item of the list of `status` that has its id. */
async function seen(location: string, status: 'queued' | 'recorded') {
  const id = location.split('/').at(-1)
  const receipt = (await r.getJson(location)).body
  const list = (await r.getJson(`/v1/deployments?status=${status}&app=sourced`)).body
  const item = list.data.find((each: { id: string }) => each.id === id)
  return { receipt: [receipt.status, receipt.source], item: [item?.status, item?.source] }
}

test("Shiplog's client is cli and any other request api, in the receipt and the list, queued then recorded", async () => {
  const fromCli = await r.postDeployment(validDeployment({ app: 'sourced', version: 'c1' }), CLIENT)
  const fromApi = await r.postDeployment(validDeployment({ app: 'sourced', version: 'a1' }), {
    'user-agent': 'curl/8.5.0',
  })
  const bare = await r.postDeployment(validDeployment({ app: 'sourced', version: 'b1' }))
  expect(await seen(fromCli, 'queued')).toEqual({
    receipt: ['queued', 'cli'],
    item: ['queued', 'cli'],
  })
  for (const location of [fromApi, bare]) {
    expect(await seen(location, 'queued')).toEqual({
      receipt: ['queued', 'api'],
      item: ['queued', 'api'],
    })
  }
  expect(await r.h.drain()).toBe(3)
  expect(await seen(fromCli, 'recorded')).toEqual({
    receipt: ['recorded', 'cli'],
    item: ['recorded', 'cli'],
  })
  for (const location of [fromApi, bare]) {
    expect(await seen(location, 'recorded')).toEqual({
      receipt: ['recorded', 'api'],
      item: ['recorded', 'api'],
    })
  }
})

test('a deployment retried after a failed attempt keeps its source', async () => {
  const allow = await refuseVersion(r.h.sql, 'refused-once', 'refused for now')
  const location = await r.postDeployment(
    validDeployment({ app: 'sourced', version: 'refused-once' }),
    CLIENT,
  )
  try {
    // The first attempt fails: the deployment moves from the inbox to the retries.
    await r.h.drain()
    const id = location.split('/').at(-1) as string
    const [inbox] = await r.h.sql<{ count: number }[]>`
      select count(*)::int as count from deployment_inbox where id = ${id}::uuid`
    expect(inbox?.count).toBe(0)
    expect(await seen(location, 'queued')).toEqual({
      receipt: ['queued', 'cli'],
      item: ['queued', 'cli'],
    })
  } finally {
    await allow()
  }
})
