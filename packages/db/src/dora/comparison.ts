// What the DORA page sets beside a window's figures: the same figures over the period of the same
// length just before it, and each application's over the window. One statement reads both
// periods' facts once, grouped by period and application, with the pieces the window's own
// statement uses (facts-statement.ts), so a period's figures equal those of asking it alone.

import type { Sql, Tx } from '../client.ts'
import { inSnapshot } from '../queries/snapshot.ts'
import { countDeploymentsByApplication, environmentIdOf } from './deployment-counts.ts'
import { eventCounts, events } from './event-counts.ts'
import { signalsOfWindow } from './failure-signals.ts'
import { isoOf } from './time-units.ts'
import { eventfulFacts, windowFacts } from './window-facts.ts'
import { failedInWindow, reworkInWindow } from './window-failures.ts'
import { bucketSpans, planWindow } from './window-plan.ts'
import { type DoraRow, selectedApplications } from './window-rows.ts'
import { type DoraQuery, windowScope } from './window-scope.ts'

/** An application of the window, and its row. */
export interface ApplicationRow {
  app: string
  repository: string
  row: DoraRow
}

/** The previous period's row ([2·since − until, since)), and each application's of the window. */
export interface DoraComparison {
  previous: { since: bigint; until: bigint; row: DoraRow }
  applications: ApplicationRow[]
}

interface GroupRow extends Omit<DoraRow, 'deployments' | 'changes'> {
  /** 'previous', or the id of an application, for the window. */
  group: string
  unchanged: number
}

const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0)

// The previous period is group 0; in the window, each application is its own id.
const PREVIOUS = '0'

/**
 * The comparison of the window of `query` ([since, until)): undefined when the workspace has no
 * such environment. Applications without a deployment in the window are left out.
 */
export function doraComparison(sql: Sql, query: DoraQuery): Promise<DoraComparison | undefined> {
  const previousSince = 2n * query.since - query.until
  const both = { ...query, since: previousSince }
  return inSnapshot(sql, async (tx) => {
    const environmentIds: string[] = []
    for (const key of query.environmentKeys) {
      const id = await environmentIdOf(tx, query.workspaceId, key)
      if (id === undefined) return undefined
      environmentIds.push(id)
    }
    const selected =
      query.appKey !== undefined || query.repositoryKey !== undefined
        ? await selectedApplications(tx, query)
        : undefined
    const plan = planWindow(query.bucket, both.since, both.until)
    const base = windowScope(tx, {
      query: both,
      environmentIds,
      selected,
      plan,
      spans: bucketSpans(query.bucket, plan, both.since, both.until),
    })
    // A scalar subquery, evaluated once: cast in place, the text would be parsed for every row.
    const since = tx`(select ${isoOf(query.since)}::text::timestamptz)`
    const w = {
      ...base,
      groupOf: (row: typeof since) =>
        tx`case when ${row}.deployed_at < ${since} then 0 else ${row}.application_id end`,
    }
    // Each application's deployments over [from, to), every environment added up.
    const count = async (from: bigint, to: bigint) => {
      const perEnvironment = await Promise.all(
        environmentIds.map((environmentId) =>
          countDeploymentsByApplication(
            tx,
            { workspaceId: query.workspaceId, environmentId, unit: 'day' },
            planWindow('day', from, to),
          ),
        ),
      )
      const totals = new Map<string, number>()
      for (const [applicationId, perDay] of perEnvironment.flatMap((counts) => [...counts])) {
        totals.set(applicationId, (totals.get(applicationId) ?? 0) + sum(perDay))
      }
      return totals
    }
    // Each application's percentiles sort the lead times of two windows in memory.
    await tx`set local work_mem = '64MB'`
    const [groups, previousCounts, counts] = await Promise.all([
      tx<GroupRow[]>`
        with window_facts as not materialized (${windowFacts(w)}),
        facts as materialized (${eventfulFacts(w)}),
        signals as (${signalsOfWindow(w)}),
        failed as (${failedInWindow(w)}),
        reworked as (${reworkInWindow(w)}),
        events as (${events(w)}),
        per_event as (${eventCounts(w)}),
        per_commit as (
          select bucket, count(*)::int as commits,
                 percentile_cont(array[0.5, 0.9]) within group (order by seconds) as percentiles
            from (select ${w.groupOf(tx`f`)} as bucket, unnest(f.lead_seconds) as seconds
                    from window_facts f) lead_times
           group by bucket)
        select coalesce(c.bucket, e.bucket)::text as group, coalesce(c.commits, 0) as "leadCommits",
               round(c.percentiles[1]::numeric, 3)::float8 as "leadMedianSeconds",
               round(c.percentiles[2]::numeric, 3)::float8 as "leadP90Seconds",
               coalesce(e.unchanged, 0) as unchanged, coalesce(e.failed, 0) as failed,
               coalesce(e.recoveries, 0) as recoveries,
               round(e.recovery_median::numeric, 3)::float8 as "recoveryMedianSeconds",
               coalesce(e.open, 0) as open, coalesce(e.rework, 0) as rework
          from per_commit c full join (select * from per_event where bucket <> -1) e
            on e.bucket = c.bucket`,
      count(previousSince, query.since),
      count(query.since, query.until),
    ])
    const keep = (applicationId: string) => !selected || selected.has(applicationId)
    const byGroup = new Map(groups.map((row) => [row.group, row]))
    const rowOf = (group: string, deployments: number): DoraRow => {
      const { group: _, unchanged, ...row } = byGroup.get(group) ?? emptyGroup(group)
      return { ...row, deployments, changes: deployments - unchanged }
    }
    let previousTotal = 0
    for (const [applicationId, total] of previousCounts)
      if (keep(applicationId)) previousTotal += total
    const applications = [...counts]
      .filter(([applicationId, total]) => keep(applicationId) && total > 0)
      .map(([applicationId, total]) => ({ applicationId, row: rowOf(applicationId, total) }))
    const names = await namesOf(
      tx,
      applications.map(({ applicationId }) => applicationId),
    )
    return {
      previous: {
        since: previousSince,
        until: query.since,
        row: rowOf(PREVIOUS, previousTotal),
      },
      applications: applications.map(({ applicationId, row }) => ({
        ...(names.get(applicationId) as { app: string; repository: string }),
        row,
      })),
    }
  })
}

function emptyGroup(group: string): GroupRow {
  return {
    group,
    leadCommits: 0,
    leadMedianSeconds: null,
    leadP90Seconds: null,
    unchanged: 0,
    failed: 0,
    recoveries: 0,
    recoveryMedianSeconds: null,
    open: 0,
    rework: 0,
  }
}

async function namesOf(tx: Tx, ids: string[]) {
  const rows = await tx<{ id: string; app: string; repository: string }[]>`
    select a.id::text, a.name as app, r.full_name as repository
      from applications a join repositories r on r.id = a.repository_id
     where a.id = any(${ids}::bigint[])`
  return new Map(rows.map(({ id, ...names }) => [id, names]))
}
