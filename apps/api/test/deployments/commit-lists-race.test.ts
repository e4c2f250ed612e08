import { expect, test } from 'bun:test'
import { readModelMatches, verifyReadModel } from '@shiplog/db/read-model'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile } from '../support/harness.ts'

// A CI that retries PUT /v1/deployments/{id}/commits on a timeout sends the same list several
// times at once; two jobs of one pipeline may send different lists. The documented rule
// (docs/api.md): every valid list is a 204 and replaces the one stored, so the lists are stored
// one after the other and the last to commit stays, whole. Never a 5xx, never a mixture.

// Enough connections for twenty requests to hold a transaction each at the same moment.
const h = harnessPerFile({ DATABASE_POOL_SIZE: '30' })

const hex = (n: number) => n.toString(16).padStart(40, '0')
/** List `n`: commits sharing SHAs with its neighbours, so a mixture of two lists would show. */
const list = (n: number) => ({
  commits: Array.from({ length: 30 }, (_, index) => ({
    sha: hex(n * 10 + index),
    committedAt: `2026-05-01T09:${String(index).padStart(2, '0')}:00Z`,
    authoredAt: '2026-05-01T08:00:00Z',
    reverts: index === 0 ? [hex(999)] : [],
  })),
  truncated: n % 2 === 1,
})
type Sent = ReturnType<typeof list>

const accepted = (version: string) => h.deploy(validDeployment({ version, app: 'racer' }))

const putAll = (id: string, bodies: Sent[]) =>
  Promise.all(bodies.map((body) => h.send('PUT', `/v1/deployments/${id}/commits`, { body })))

/** The stored list as it was sent: SHAs in order sent, the truncated flag. */
async function stored(id: string) {
  const read = await h.get(`/v1/deployments/${id}/commits`)
  expect(read.status).toBe(200)
  const body = (await read.json()) as { truncated: boolean; commits: { sha: string }[] }
  return { shas: body.commits.map((each) => each.sha).sort(), truncated: body.truncated }
}
const asStored = (body: Sent) => ({
  shas: body.commits.map((each) => each.sha).sort(),
  truncated: body.truncated,
})

async function expectSettled(id: string, bodies: Sent[], answers: Response[]) {
  expect(answers.map((answer) => answer.status)).toEqual(bodies.map(() => 204))
  const [kept] = await h.sql<{ lists: number }[]>`
    select count(*)::int as lists from deployment_commit_lists where deployment_id = ${id}`
  expect(kept?.lists).toBe(1)
  expect(bodies.map(asStored)).toContainEqual(await stored(id))
  expect(readModelMatches(await verifyReadModel(h.sql))).toBe(true)
  expect(h.logs.filter((line) => line.msg === 'unexpected error')).toEqual([])
}

test('20 identical lists at once for a recorded deployment: twenty 204s, the list stored once', async () => {
  const id = await accepted('identical')
  await h.drain()
  const bodies = Array.from({ length: 20 }, () => list(1))
  await expectSettled(id, bodies, await putAll(id, bodies))
  expect(await stored(id)).toEqual(asStored(list(1)))
})

test('20 different lists at once for a recorded deployment: twenty 204s, one list stored whole', async () => {
  const id = await accepted('mixed')
  await h.drain()
  await putAll(id, [list(7)])
  const bodies = Array.from({ length: 20 }, (_, index) => list(index % 5))
  await expectSettled(id, bodies, await putAll(id, bodies))
})

test('20 lists at once while the worker records the deployment: no 5xx, one list whole', async () => {
  const id = await accepted('while-queued')
  const bodies = Array.from({ length: 20 }, (_, index) => list(index % 3))
  const [answers] = await Promise.all([putAll(id, bodies), h.drain()])
  await expectSettled(id, bodies, answers)
})
