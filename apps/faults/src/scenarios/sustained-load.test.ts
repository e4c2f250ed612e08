import { afterAll, beforeAll, expect, test } from 'bun:test'
import { expectEachAcceptedOnce, reconcile } from '../harness/ledger.ts'
import { type LiveLoad, runLiveLoad } from '../harness/live-load.ts'
import { recordScenario } from '../harness/results.ts'
import { Stack } from '../harness/stack.ts'

// Issue 25: in-order live load at a fixed rate for minutes, reads mixed in. Defaults fit the test
// suite (3 minutes at 300/s); SUSTAINED_RATE=800 SUSTAINED_SECONDS=600 is the run.
const RATE = Number(process.env.SUSTAINED_RATE ?? 300)
const SECONDS = Number(process.env.SUSTAINED_SECONDS ?? 180)
// How soon after the load stops every 202 must be recorded.
const CATCH_UP_MS = 30_000

let stack: Stack
beforeAll(async () => {
  stack = await Stack.create()
})
afterAll(() => stack?.close())

test(
  `${RATE} deployments/s in order for ${SECONDS} s with reads: all recorded within 30 s of the end, memory flat`,
  async () => {
    const api = await stack.startApi()
    const worker = stack.startWorker({ WORKER_POLL_INTERVAL_MS: '200' })
    const load: LiveLoad = await runLiveLoad(stack, {
      base: api.base,
      rate: RATE,
      seconds: SECONDS,
      rss: { api: () => api.process.rssKiB(), worker: () => worker.rssKiB() },
    })
    const stoppedAt = Date.now()
    const accepted = load.sent.filter((sent) => sent.status === 202).length
    // A backlog is measured, then waited out, so a slow run still reports its figures.
    const inTime = await stack.untilDrained(accepted, CATCH_UP_MS).then(
      () => true,
      () => false,
    )
    const [late] = await stack.sql<{ waiting: number }[]>`
      select count(*)::int as waiting from deployment_inbox`
    const backlog = inTime ? 0 : (late?.waiting ?? 0)
    if (!inTime) await stack.untilDrained(accepted, 600_000)
    const caughtUpMs = Date.now() - stoppedAt
    const ledger = await reconcile(stack.sql, load.sent)
    // What the queue costs per deployment at the end of the run, before any retention ran: the
    // inbox and all of the queue engine's schema, beside the deployments' own tables.
    const [bytes] = await stack.sql<{ queue: number; tables: number }[]>`
    select (select pg_total_relation_size('deployment_inbox')
              + coalesce(sum(pg_total_relation_size(c.oid)), 0)
              from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = 'pgboss' and c.relkind = 'r')::float8 as queue,
           (select sum(pg_total_relation_size(c.oid))
              from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = 'public' and c.relkind in ('r', 'p')
               and c.relname <> 'deployment_inbox')::float8 as tables`
    const perDeployment = (total = 0) => Math.round(total / Math.max(1, accepted))
    const growth = (samples: number[]) => {
      // Flat: the last third's peak within 20 % (or 30 MB) of the middle third's.
      const third = Math.floor(samples.length / 3)
      const middle = Math.max(...samples.slice(third, 2 * third))
      const last = Math.max(...samples.slice(2 * third))
      return {
        middleMB: Math.round(middle / 1024),
        lastMB: Math.round(last / 1024),
        flat: last <= Math.max(middle * 1.2, middle + 30_720),
      }
    }
    const apiRss = growth(load.rssKiB.api)
    const workerRss = growth(load.rssKiB.worker)
    const passed =
      backlog === 0 &&
      ledger.lost === 0 &&
      ledger.duplicates === 0 &&
      apiRss.flat &&
      workerRss.flat &&
      load.readErrors === 0
    await recordScenario({
      id: '9-sustained-load',
      title: `${RATE} deployments/s in order for ${SECONDS} s, reads mixed in`,
      figures: {
        'accepted (202)': accepted,
        'other answers': JSON.stringify(ledger.statuses),
        lost: ledger.lost,
        duplicates: ledger.duplicates,
        'reads (5xx among them)': `${load.reads} (${load.readErrors})`,
        'recorded per minute during the load': load.recordedPerMinute.join(', '),
        'backlog 30 s after the load stopped': backlog,
        'all recorded after the load stopped, within': `${(caughtUpMs / 1000).toFixed(1)} s`,
        'queue bytes per deployment (inbox and engine, at the end)': perDeployment(bytes?.queue),
        'tables bytes per deployment (schema public but the inbox)': perDeployment(bytes?.tables),
        'API RSS middle → last third (MB)': `${apiRss.middleMB} → ${apiRss.lastMB}`,
        'worker RSS middle → last third (MB)': `${workerRss.middleMB} → ${workerRss.lastMB}`,
      },
      passed,
    })
    expect(backlog).toBe(0)
    expectEachAcceptedOnce(ledger)
    expect(load.readErrors).toBe(0)
    expect(apiRss.flat).toBe(true)
    expect(workerRss.flat).toBe(true)
    // Paced, not a burst: the driver kept the rate (within 10 %) for the whole run.
    expect(accepted).toBeGreaterThan(RATE * SECONDS * 0.9)
  },
  (SECONDS + 720) * 1000,
)
