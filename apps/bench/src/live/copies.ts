import { randomBytes } from 'node:crypto'
import { createSql, type Sql } from '@shiplog/db/client'
import { seedDeployments } from '@shiplog/db/testing'
import { createBenchDatabase, runOnServer, withDatabase } from '../read/database.ts'
import { LIVE_SHAPE, liveStreams, type Stream } from './shape.ts'

/** A database to drain into: its connection, its workspace, and how to be rid of it. */
export interface DrainDatabase {
  url: string
  sql: Sql
  workspaceId: string
  drop(): Promise<void>
}

/** A seeded database that every drain of its size starts from a copy of. */
export interface Pattern {
  name: string
  workspaceId: string
  /** The streams live deployments go to, the same in every copy. */
  streams: Stream[]
  drop(): Promise<void>
}

/**
 * Seeds `stored` live-shape deployments over a year, vacuums and analyzes them as autovacuum would
 * have by then, and closes its connection: a database that is copied, never written.
 */
export async function seedPattern(serverUrl: string, stored: number): Promise<Pattern> {
  const database = await createBenchDatabase(serverUrl)
  const name = new URL(database.url).pathname.slice(1)
  try {
    await seedDeployments(database.sql, {
      workspaceId: database.workspaceId,
      deployments: stored,
      days: 365,
      ...LIVE_SHAPE,
    })
    await database.sql.unsafe('vacuum analyze')
  } catch (error) {
    await database.close(false)
    throw error
  }
  await database.sql.unsafe('create extension if not exists pg_prewarm').catch((error) => {
    console.log(`[bench:drain] no pg_prewarm (${String(error)}): copies start with cold buffers`)
  })
  const streams = await liveStreams(database.sql, database.workspaceId)
  await database.sql.end({ timeout: 5 })
  return {
    name,
    workspaceId: database.workspaceId,
    streams,
    drop: () => runOnServer(serverUrl, `drop database if exists "${name}" with (force)`),
  }
}

// A copy's files are new to Postgres, so none of its pages is in the buffer cache, where a live
// workspace keeps the pages its writes touch all over: the commit index (each new commit at a
// random page), the streams' index (each stream's newest page) and the read model. Loaded before
// the drain, as a live workspace has them; the warm-up drain loads the rest.
const HOT_RELATIONS = [
  'deployments_by_commit_prefix',
  'deployments_unique_delivery',
  'deployment_cells',
  'deployment_cells_pkey',
  'deployment_counts',
  'deployment_counts_pkey',
]

async function prewarm(sql: Sql): Promise<void> {
  const [available] = await sql`select 1 from pg_extension where extname = 'pg_prewarm'`
  if (!available) return
  for (const relation of HOT_RELATIONS) await sql`select pg_prewarm(${relation}::regclass)`
}

/**
 * A copy of the pattern, file by file (no write-ahead log for it), so every drain of a size starts
 * from exactly the rows seeded: a database drained into grows by each drain, and a size's later
 * drains would measure a larger one.
 */
export async function copyOf(serverUrl: string, pattern: Pattern): Promise<DrainDatabase> {
  const name = `${pattern.name}_copy_${randomBytes(3).toString('hex')}`
  await runOnServer(
    serverUrl,
    `create database "${name}" template "${pattern.name}" strategy file_copy`,
  )
  const url = withDatabase(serverUrl, name)
  const sql = createSql(url, {
    applicationName: 'shiplog-bench-drain',
    maxConnections: 1,
    statementTimeoutMs: 0,
  })
  await prewarm(sql)
  return {
    url,
    sql,
    workspaceId: pattern.workspaceId,
    async drop() {
      await sql.end({ timeout: 5 })
      await runOnServer(serverUrl, `drop database if exists "${name}" with (force)`)
    },
  }
}
