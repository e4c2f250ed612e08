import type { Sent } from './driver.ts'
import type { Stack } from './stack.ts'

/** What a paced live run sent and saw. */
export interface LiveLoad {
  sent: Sent[]
  reads: number
  readErrors: number
  /** Deployments recorded in each whole minute of the load. */
  recordedPerMinute: number[]
  rssKiB: { api: number[]; worker: number[] }
}

const TICK_MS = 10
const READ_EVERY = 20
const READS = ['/v1/state', '/v1/deployments?limit=50', '/v1/deployments?status=queued&limit=50']

/**
 * Issue 25's live shape, as pipelines send it: 300 applications of 20 repositories, each in 4
 * environments, in turn; `deployedAt` omitted, so each is the newest of its stream; a new commit
 * and a unique version each (the ledger matches rows to requests by version).
 */
function liveBody(index: number): string {
  const app = index % 300
  return JSON.stringify({
    repositoryFullName: `acme/repo-${app % 20}`,
    app: `svc-${app}`,
    environment: ['production', 'staging', 'development', 'qa'][Math.floor(index / 300) % 4],
    version: `live-${index}`,
    commitHash: (index * 2654435761).toString(16).padStart(8, '0').repeat(5).slice(0, 40),
  })
}

async function recorded(stack: Stack): Promise<number> {
  const [row] = await stack.sql<{ total: number }[]>`
    select coalesce(sum(deployment_count), 0)::int as total from deployment_cells`
  return row?.total ?? 0
}

/**
 * Posts at `rate` per second for `seconds`, one read for every 20 posts, sampling the processes'
 * memory every 5 s and the recorded count every minute. Resolves once every request answered.
 */
export async function runLiveLoad(
  stack: Stack,
  options: {
    base: string
    rate: number
    seconds: number
    rss: { api: () => number; worker: () => number }
  },
): Promise<LiveLoad> {
  const headers = { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' }
  const result: LiveLoad = {
    sent: [],
    reads: 0,
    readErrors: 0,
    recordedPerMinute: [],
    rssKiB: { api: [], worker: [] },
  }
  const inFlight = new Set<Promise<void>>()
  const track = (promise: Promise<void>) => {
    inFlight.add(promise)
    promise.finally(() => inFlight.delete(promise))
  }
  const post = (index: number) => {
    const startedAt = performance.now()
    const version = `live-${index}`
    const body = liveBody(index)
    return fetch(`${options.base}/v1/deployments`, { method: 'POST', headers, body })
      .then(async (response) => {
        await response.arrayBuffer()
        result.sent.push({
          version,
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          ms: Math.round(performance.now() - startedAt),
        })
      })
      .catch(() => {
        result.sent.push({ version, status: 0, retryAfter: null, ms: 0 })
      })
  }
  const read = (index: number) =>
    fetch(`${options.base}${READS[index % READS.length]}`, { headers })
      .then(async (response) => {
        await response.arrayBuffer()
        result.reads++
        if (response.status >= 500) result.readErrors++
      })
      .catch(() => {
        result.reads++
        result.readErrors++
      })

  const sampler = setInterval(() => {
    result.rssKiB.api.push(options.rss.api())
    result.rssKiB.worker.push(options.rss.worker())
  }, 5_000)
  let lastMinute = await recorded(stack)
  const minutes = setInterval(async () => {
    const now = await recorded(stack)
    result.recordedPerMinute.push(now - lastMinute)
    lastMinute = now
  }, 60_000)

  const startedAt = performance.now()
  let next = 0
  // Paced by the clock: each tick sends what the rate owes since the start, so a slow tick is
  // made up by the next, never dropped.
  while (performance.now() - startedAt < options.seconds * 1000) {
    const owed = Math.floor(((performance.now() - startedAt) / 1000) * options.rate)
    for (; next < owed; next++) {
      track(post(next))
      if (next % READ_EVERY === 0) track(read(next / READ_EVERY))
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS))
  }
  while (inFlight.size > 0) await Promise.all([...inFlight])
  clearInterval(sampler)
  clearInterval(minutes)
  return result
}
