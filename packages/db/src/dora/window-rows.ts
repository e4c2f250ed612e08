import type { Sql, Tx } from '../client.ts'
import { inSnapshot } from '../queries/snapshot.ts'
import { countDeploymentsByApplication, environmentIdOf } from './deployment-counts.ts'
import { type FactsRow, factsOfWindow } from './facts-statement.ts'
import { type BucketSpan, bucketSpans, planWindow } from './window-plan.ts'
import { type DoraQuery, windowScope } from './window-scope.ts'

/** What the five keys are computed from, for the window or one of its buckets. */
export interface DoraRow {
  deployments: number
  leadCommits: number
  leadMedianSeconds: number | null
  leadP90Seconds: number | null
  /** Deployments of type initial or forward. */
  changes: number
  failed: number
  recoveries: number
  recoveryMedianSeconds: number | null
  open: number
  rework: number
}

/** The rows of a window, and of each of its buckets in order (`bucketSpans`). */
export interface DoraWindowRows {
  window: DoraRow
  buckets: (BucketSpan & { row: DoraRow })[]
}

/**
 * The rows of the environments' window (one, or several counted together) and of its buckets,
 * in one snapshot, or undefined when the workspace lacks one of them. Deployments are counted by the read model's rollup
 * (deployment-counts.ts, as deployment frequency counts them); everything else comes from one
 * statement over the stored facts of the window (facts-statement.ts). No deployment of the
 * window is read from the deployments table but those that failed or are rework, by primary key.
 */
export async function doraWindowRows(
  sql: Sql,
  query: DoraQuery,
): Promise<DoraWindowRows | undefined> {
  const plan = planWindow(query.bucket, query.since, query.until)
  const spans = bucketSpans(query.bucket, plan, query.since, query.until)
  return inSnapshot(sql, async (tx) => {
    const environmentIds: string[] = []
    for (const key of query.environmentKeys) {
      const id = await environmentIdOf(tx, query.workspaceId, key)
      if (id === undefined) return undefined
      environmentIds.push(id)
    }
    // An app or repository filter, resolved once to the ids both reads below keep.
    const selected =
      query.appKey !== undefined || query.repositoryKey !== undefined
        ? await selectedApplications(tx, query)
        : undefined
    const [perEnvironment, facts] = await Promise.all([
      Promise.all(
        environmentIds.map((environmentId) =>
          countDeploymentsByApplication(
            tx,
            { workspaceId: query.workspaceId, environmentId, unit: query.bucket },
            plan,
          ),
        ),
      ),
      factsOfWindow(windowScope(tx, { query, environmentIds, selected, plan, spans })),
    ])
    const deployments = new Array<number>(plan.bucketCount).fill(0)
    for (const [applicationId, perBucket] of perEnvironment.flatMap((counts) => [...counts])) {
      if (selected && !selected.has(applicationId)) continue
      perBucket.forEach((count, index) => {
        deployments[index] = (deployments[index] ?? 0) + count
      })
    }
    const total = deployments.reduce((sum, count) => sum + count, 0)
    return rowsOf(facts, deployments, total, spans)
  })
}

/** Joins the statement's rows (one for the window and one per bucket) with the counts. */
function rowsOf(
  facts: FactsRow[],
  deployments: number[],
  total: number,
  spans: BucketSpan[],
): DoraWindowRows {
  const byBucket = new Map(facts.map((row) => [row.bucket, row]))
  const rowOf = (bucket: number, count: number): DoraRow => {
    const { bucket: _, unchanged, ...row } = byBucket.get(bucket) as FactsRow
    return { ...row, deployments: count, changes: count - unchanged }
  }
  return {
    window: rowOf(-1, total),
    buckets: spans.map((span, index) => ({ ...span, row: rowOf(index, deployments[index] ?? 0) })),
  }
}

/** The ids of the applications an app or repository filter selects. */
export async function selectedApplications(tx: Tx, query: DoraQuery): Promise<Set<string>> {
  const rows = await tx<{ id: string }[]>`
    select a.id::text from applications a join repositories r on r.id = a.repository_id
     where a.workspace_id = ${query.workspaceId}
       ${query.appKey === undefined ? tx`` : tx`and a.name_key = ${query.appKey}`}
       ${query.repositoryKey === undefined ? tx`` : tx`and r.full_name_key = ${query.repositoryKey}`}`
  return new Set(rows.map(({ id }) => id))
}
