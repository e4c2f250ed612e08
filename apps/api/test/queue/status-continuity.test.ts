import { beforeAll, expect, test } from 'bun:test'
import { validDeployment } from '@shiplog/schema/testing'
import { harnessPerFile, idOf } from '../support/harness.ts'

// Issue 30, item 8: a pipeline polling the lists must never find an accepted deployment in
// neither. Queued is listed before recorded in each poll, so a deployment that moves in between
// shows in both (deduped by id); one that fell between the two states would show in neither.

const TOTAL = 1_000

// Small batches and two loops: many commits, so many moments when a job completes.
const h = harnessPerFile(
  {},
  { WORKER_BATCH_SIZE: '25', WORKER_CONCURRENCY: '2', WORKER_POLL_INTERVAL_MS: '10' },
)
let key: string
beforeAll(async () => {
  key = (await h.createKey({ workspace: 'poller', rateLimitPerMinute: 1_000_000 })).key
})

async function listAll(status: 'queued' | 'recorded'): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | null = null
  do {
    const query = `status=${status}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const response = await h.get(`/v1/deployments?${query}`, { key })
    expect(response.status).toBe(200)
    const page = (await response.json()) as { data: { id: string }[]; nextCursor: string | null }
    ids.push(...page.data.map((deployment) => deployment.id))
    cursor = page.nextCursor
  } while (cursor !== null)
  return ids
}

test('every accepted deployment is queued or recorded at every poll while a worker records them', async () => {
  const accepted: string[] = []
  let posting = true
  const poster = (async () => {
    for (let sent = 0; sent < TOTAL; sent += 20) {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          h.post(
            validDeployment({ app: `app-${(sent + index) % 7}`, version: `v${sent + index}` }),
            { key },
          ),
        ),
      )
      for (const response of responses) {
        expect(response.status).toBe(202)
        accepted.push(idOf(response))
      }
    }
    posting = false
  })()
  h.worker.consumer.start()

  let polls = 0
  let pollsMidway = 0
  const missing: { poll: number; ids: string[] }[] = []
  for (;;) {
    const known = [...accepted]
    const done = !posting
    const queued = await listAll('queued')
    const recorded = await listAll('recorded')
    if (queued.length > 0 && recorded.length > 0) pollsMidway++
    const seen = new Set([...queued, ...recorded])
    const lost = known.filter((id) => !seen.has(id))
    if (lost.length > 0) missing.push({ poll: polls, ids: lost })
    polls++
    if (done && seen.size === TOTAL && (await listAll('queued')).length === 0) break
  }
  await poster
  expect(missing).toEqual([])
  expect(accepted).toHaveLength(TOTAL)
  expect(new Set(await listAll('recorded')).size).toBe(TOTAL)
  // The loop must have watched jobs complete, not just the end state.
  expect(pollsMidway).toBeGreaterThan(3)
}, 120_000)
