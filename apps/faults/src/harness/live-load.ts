import type { Sent } from './driver.ts'
import { commitFor, InFlight, paced } from './pacing.ts'
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
    commitHash: commitFor(index),
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
  const inFlight = new InFlight()
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

  await paced(
    options.rate,
    (elapsedMs) => elapsedMs < options.seconds * 1000,
    (index) => {
      inFlight.track(post(index))
      if (index % READ_EVERY === 0) inFlight.track(read(index / READ_EVERY))
    },
  )
  await inFlight.settled()
  clearInterval(sampler)
  clearInterval(minutes)
  return result
}
