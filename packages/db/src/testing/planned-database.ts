import { expect } from 'bun:test'
import type postgres from 'postgres'
import { createSql, type Sql } from '../client.ts'
import { ensureWorkspace } from '../queries/workspaces.ts'
import { seedCommits } from './seed-commits.ts'
import { seedDeployments } from './seed-deployments.ts'
import { createTestDatabase, type TestDatabase } from './test-database.ts'

// A seeded database whose reads' plans are captured by auto_explain on one connection, as the
// app runs the queries: the plan tests (queries/plans.test.ts, queries/dora-plans.test.ts) ask
// which indexes a read walked and what it scanned whole.

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  Plans?: PlanNode[]
}

/** A scan of a plan: what it read and how. */
export interface Scan {
  node: string
  relation?: string
  index?: string
}

/** The seeded database, the planned connection, and the plans it logged. */
export interface PlannedDatabase {
  database: TestDatabase
  seeder: Sql
  sql: Sql
  workspaceId: string
  /** Runs a read and returns every scan of every statement it sent, from auto_explain's log. */
  scansWhile: (read: () => Promise<unknown>) => Promise<Scan[]>
  close: () => Promise<void>
}

/** 20,000 deployments over 400 days with five commits each, analyzed. */
export async function startPlannedDatabase(): Promise<PlannedDatabase> {
  const notices: postgres.Notice[] = []
  const database = await createTestDatabase()
  const seeder = createSql(database.url, { applicationName: 'plans-seed', maxConnections: 1 })
  const workspaceId = (await ensureWorkspace(seeder, 'plans')).id
  await seedDeployments(seeder, {
    workspaceId,
    deployments: 20_000,
    repositories: 5,
    applicationsPerRepository: 10,
    days: 400,
    chunk: 5_000,
  })
  // Commit lists too, with their reverts, so the DORA facts are as large as the deployments.
  await seedCommits(seeder, { workspaceId, perDeployment: 5 })
  await seeder`vacuum analyze`
  const sql = createSql(database.url, {
    applicationName: 'plans',
    maxConnections: 1,
    settings: {
      session_preload_libraries: 'auto_explain',
      'auto_explain.log_min_duration': '0',
      'auto_explain.log_format': 'json',
      client_min_messages: 'log',
    },
    onNotice: (notice) => notices.push(notice),
  })
  const scansWhile = async (read: () => Promise<unknown>): Promise<Scan[]> => {
    notices.length = 0
    await read()
    const plans = notices
      .map((notice) => String(notice.message))
      .filter((message) => message.includes('plan:'))
      .map((message) => JSON.parse(message.slice(message.indexOf('{'))) as { Plan: PlanNode })
    expect(plans.length).toBeGreaterThan(0)
    return plans.flatMap((plan) => scansOf(plan.Plan))
  }
  const close = async () => {
    await sql.end()
    await seeder.end()
    await database.drop()
  }
  return { database, seeder, sql, workspaceId, scansWhile, close }
}

function scansOf(node: PlanNode): Scan[] {
  const own: Scan[] = node['Relation Name']
    ? [{ node: node['Node Type'], relation: node['Relation Name'], index: node['Index Name'] }]
    : node['Index Name']
      ? [{ node: node['Node Type'], index: node['Index Name'] }]
      : []
  return [...own, ...(node.Plans ?? []).flatMap(scansOf)]
}

export const indexesOf = (scans: Scan[]) => new Set(scans.map((scan) => scan.index).filter(Boolean))
export const seqScanned = (scans: Scan[]) =>
  scans.filter((scan) => scan.node === 'Seq Scan').map((scan) => scan.relation)
