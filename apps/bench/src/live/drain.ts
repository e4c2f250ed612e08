import { createSql, type Sql } from '@shiplog/db/client'
import { insertIntoInbox } from '@shiplog/db/queue'
import { startProcess } from '../processes.ts'
import { liveJobs, type Stream } from './shape.ts'

/** One drain measured on the live shape. */
export interface LiveDrain {
  concurrency: number
  snapshotHeld: boolean
  jobs: number
  seconds: number
  perSecond: number
  /** The inbox's bytes (heap, index) per deployment waiting, measured full before the drain. */
  queueBytesPerDeployment: number
  /** Of the worker's backends seen busy while sampling, the share waiting on a lock. */
  lockWaitShare: number
  /** Write-ahead log the server wrote during the drain, per deployment recorded. */
  walBytesPerDeployment: number
  /** Of those, whole pages logged because the drain touched them first since a checkpoint. */
  fullPagesPerDeployment: number
  /** Pages the database's backends asked for and did not find in Postgres's buffers. */
  missedPagesPerDeployment: number
}

async function serverTotals(sql: Sql): Promise<{ bytes: number; pages: number; missed: number }> {
  const [row] = await sql<{ bytes: number; pages: number; missed: number }[]>`
    select wal_bytes::float8 as bytes, wal_fpi::float8 as pages,
           (select blks_read::float8 from pg_stat_database where datname = current_database()) as missed
      from pg_stat_wal`
  return row ?? { bytes: 0, pages: 0, missed: 0 }
}

async function recordedTotal(sql: Sql): Promise<number> {
  const [row] = await sql<{ total: number }[]>`
    select coalesce(sum(deployment_count), 0)::int as total from deployment_cells`
  return row?.total ?? 0
}

/**
 * Fills the inbox with `jobs` live deployments (after everything stored), starts a worker with
 * `concurrency` loops and times until every one is recorded. With `holdSnapshot`, another session
 * holds a REPEATABLE READ snapshot from before the fill to the end, as a long report or an idle
 * transaction would: vacuum can then remove nothing the fill and the drain leave behind.
 */
export async function measureLiveDrain(
  url: string,
  streams: Stream[],
  workspaceId: string,
  options: { jobs: number; concurrency: number; holdSnapshot: boolean },
): Promise<LiveDrain> {
  const sql = createSql(url, {
    applicationName: 'shiplog-bench-drain',
    maxConnections: 1,
    statementTimeoutMs: 0,
  })
  const holder = createSql(url, {
    applicationName: 'shiplog-bench-snapshot',
    maxConnections: 1,
    statementTimeoutMs: 0,
  })
  let release: (() => void) | undefined
  let held: Promise<unknown> | undefined
  try {
    if (options.holdSnapshot) {
      const taken = Promise.withResolvers<void>()
      const done = new Promise<void>((resolve) => {
        release = resolve
      })
      held = holder
        .begin('isolation level repeatable read', async (tx) => {
          await tx`select count(*) from deployment_cells`
          taken.resolve()
          await done
        })
        .catch((error) => console.error('snapshot holder:', String(error)))
      await taken.promise
    }
    const before = await recordedTotal(sql)
    const [{ latest } = { latest: Date.now() }] = await sql<{ latest: number }[]>`
      select (extract(epoch from coalesce(max(latest_deployed_at), now())) * 1000)::float8 as latest
        from deployment_cells`
    const startMs = Math.max(Date.now(), Math.ceil(latest) + 1)
    for (let offset = 0; offset < options.jobs; offset += 1_000) {
      const count = Math.min(1_000, options.jobs - offset)
      await insertIntoInbox(sql, liveJobs(streams, workspaceId, count, offset, startMs))
    }
    const [{ bytes } = { bytes: 0 }] = await sql<{ bytes: number }[]>`
      select pg_total_relation_size('deployment_inbox')::float8 as bytes`
    const serverBefore = await serverTotals(sql)
    const startedAt = performance.now()
    const worker = startProcess('apps/worker/src/main.ts', {
      DATABASE_URL: url,
      WORKER_CONCURRENCY: String(options.concurrency),
      WORKER_PORT: '0',
    })
    // Timed from the first batch seen recorded, so the process's start-up (a second or so of
    // Bun and the queue's engine) is not counted against a drain of a few seconds.
    let recorded = 0
    let first: { at: number; recorded: number } | undefined
    const samples = { active: 0, locked: 0 }
    // The total sums every cell, a table whose rows a held snapshot leaves long chains of
    // versions behind: read every 250 ms rather than every sample, so the benchmark's own reads
    // take little from the worker it measures, and every sample near the end, so the end is
    // seen within 50 ms.
    for (let sample = 0; recorded < options.jobs; sample++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      if (sample % 5 === 4 || recorded >= options.jobs * 0.9)
        recorded = (await recordedTotal(sql)) - before
      const [busy] = await sql<{ active: number; locked: number }[]>`
        select count(*)::int as active, count(*) filter (where wait_event_type = 'Lock')::int as locked
          from pg_stat_activity
         where datname = current_database() and application_name like 'shiplog-worker%'
           and state = 'active'`
      samples.active += busy?.active ?? 0
      samples.locked += busy?.locked ?? 0
      if (recorded > 0 && !first) first = { at: performance.now(), recorded }
      if (performance.now() - startedAt > 600_000) break
    }
    const seconds = (performance.now() - (first?.at ?? startedAt)) / 1000
    await worker.stop()
    const serverAfter = await serverTotals(sql)
    return {
      concurrency: options.concurrency,
      snapshotHeld: options.holdSnapshot,
      jobs: options.jobs,
      seconds,
      perSecond: (recorded - (first?.recorded ?? 0)) / seconds,
      queueBytesPerDeployment: bytes / options.jobs,
      lockWaitShare: samples.active > 0 ? samples.locked / samples.active : 0,
      walBytesPerDeployment: (serverAfter.bytes - serverBefore.bytes) / Math.max(recorded, 1),
      fullPagesPerDeployment: (serverAfter.pages - serverBefore.pages) / Math.max(recorded, 1),
      missedPagesPerDeployment: (serverAfter.missed - serverBefore.missed) / Math.max(recorded, 1),
    }
  } finally {
    release?.()
    await held
    await holder.end({ timeout: 5 })
    await sql.end({ timeout: 5 })
  }
}
