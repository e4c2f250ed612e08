import { randomBytes } from 'node:crypto'
import { createSql, type Sql } from '@shiplog/db/client'
import { issueApiKey } from '@shiplog/db/issue-api-key'
import { migrateDatabase } from '@shiplog/db/migrate'
import { ensureWorkspace } from '@shiplog/db/queries/workspaces'
import { DEFAULT_RETRY_POLICY } from '@shiplog/db/queue'
import { seedCommits, seedDeployments } from '@shiplog/db/testing'

/** The one database the read benchmark seeds at each size, its workspace and a key to read it with. */
export interface BenchDatabase {
  url: string
  /** Seeding and measuring; no statement timeout, since seeding and vacuum take minutes. */
  sql: Sql
  workspaceId: string
  key: string
  /**
   * Empties the workspace's deployments and seeds `total` afresh, in time order as production
   * receives them (growing one database in steps would insert each step into the middle of the
   * time-keyed indexes and split their pages), then `vacuum analyze`s, as autovacuum would have
   * by the time a real workspace got there; resolves with the seconds each took.
   */
  seedAfresh(
    total: number,
    options?: { days?: number; commitsPerDeployment?: number },
  ): Promise<{ seedSeconds: number; vacuumSeconds: number }>
  /** Closes the connection and drops the database (unless `keep`, then prints its URL); once. */
  close(keep: boolean): Promise<void>
}

/** The URL of another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/** Runs one statement (creating or dropping a database) on a connection of its own. */
export async function runOnServer(serverUrl: string, statement: string): Promise<void> {
  const admin = createSql(serverUrl, { applicationName: 'shiplog-bench', maxConnections: 1 })
  try {
    await admin.unsafe(statement)
  } finally {
    await admin.end({ timeout: 5 })
  }
}

const seconds = (since: number) => (performance.now() - since) / 1000

/** Migrates the new database and issues the key, in a workspace of its own. */
async function setUp(url: string, sql: Sql): Promise<{ workspaceId: string; key: string }> {
  await migrateDatabase(url, DEFAULT_RETRY_POLICY)
  const { id: workspaceId } = await ensureWorkspace(sql, 'bench')
  const { key } = await issueApiKey(sql, {
    workspace: 'bench',
    name: 'bench-read',
    rateLimitPerMinute: 1_000_000_000,
  })
  return { workspaceId, key }
}

/**
 * Creates and migrates a database of its own on the server at `serverUrl` (named apart, so it
 * never meets a test run's or `bun run dev`'s data), with a workspace and a key whose rate limit
 * no benchmark reaches.
 */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `shiplog_bench_read_${randomBytes(4).toString('hex')}`
  await runOnServer(serverUrl, `create database "${name}"`)
  const url = withDatabase(serverUrl, name)
  const drop = () => runOnServer(serverUrl, `drop database if exists "${name}" with (force)`)
  const sql = createSql(url, {
    applicationName: 'shiplog-bench-read',
    maxConnections: 1,
    statementTimeoutMs: 0,
  })
  const { workspaceId, key } = await setUp(url, sql).catch(async (error) => {
    await sql.end({ timeout: 5 })
    await drop()
    throw error
  })

  let closing: Promise<void> | undefined
  return {
    url,
    sql,
    workspaceId,
    key,
    async seedAfresh(total, options = {}) {
      await sql`
        truncate deployments, deployment_aliases, deployment_cells, deployment_counts, incidents,
                 deployment_dora_facts, deployment_commit_lists, deployment_commits`
      const seeding = performance.now()
      await seedDeployments(sql, {
        workspaceId,
        deployments: total,
        ...(options.days === undefined ? {} : { days: options.days }),
      })
      if (options.commitsPerDeployment)
        await seedCommits(sql, { workspaceId, perDeployment: options.commitsPerDeployment })
      const seedSeconds = seconds(seeding)
      const vacuuming = performance.now()
      await sql.unsafe('vacuum analyze')
      return { seedSeconds, vacuumSeconds: seconds(vacuuming) }
    },
    close(keep) {
      // Once, though both an interrupt and the run's own end may ask.
      closing ??= (async () => {
        await sql.end({ timeout: 5 })
        if (keep) console.log(`[bench:read] kept the database: ${url}`)
        else await drop()
      })()
      return closing
    },
  }
}
