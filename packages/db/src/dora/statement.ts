// The one statement behind every DORA figure. Its callers say, as data, which periods they want
// and how each is split: the five keys a window and each of its buckets (five-keys.ts), the DORA
// page's comparison the period before a window and each application in it (comparison.ts); a
// team's figures will be one more split. Whatever the split, a row is counted by the same rules:
// deployments from the rollup (deployment-counts.ts), everything else from one statement over the
// stored facts of the periods (migration 0015), so a span has the same figures however it is asked.

import type { Fragment, Tx } from '../client.ts'
import { countWindowDeployments, environmentIdsOf } from './deployment-counts.ts'
import { earliestRecoveries, failureSignals, reworkDeployments } from './failure-signals.ts'
import {
  type BucketSpan,
  type BucketUnit,
  bucketSpans,
  isoOf,
  planWindow,
  type WindowPlan,
} from './time-units.ts'

/** Which deployments the figures are computed from. */
export interface DoraScope {
  workspaceId: string
  /** One environment, or several counted together (all production ones). */
  environmentKeys: string[]
  appKey?: string | undefined
  repositoryKey?: string | undefined
}

/** A period the statement answers for, [since, until) in microseconds since the epoch. */
export interface DoraPeriod {
  since: bigint
  until: bigint
  /** Whether the period's own row is wanted. */
  whole: boolean
  /** Rows per bucket of a unit (edge buckets cut to the period), or per application deployed in it. */
  split?: BucketUnit | 'application' | undefined
}

/** What the five keys are computed from, for one group of deployments. */
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

/** The rows of a period, as its `DoraPeriod` asked them. */
export interface PeriodRows {
  since: bigint
  until: bigint
  whole: DoraRow | undefined
  /** In order; empty unless split by a unit. */
  buckets: (BucketSpan & { row: DoraRow })[]
  /** By application id, each with a deployment in the period; empty unless split by application. */
  applications: Map<string, DoraRow>
}

/**
 * The rows of each period, in the caller's snapshot (inSnapshot), or undefined when the
 * workspace lacks one of the environments. Only the deployments that fail or are rework are read
 * from the deployments table, by primary key.
 */
export async function doraStatement(
  tx: Tx,
  scope: DoraScope,
  periods: DoraPeriod[],
): Promise<PeriodRows[] | undefined> {
  const plans = periods.map((period) => plannedPeriod(period))
  const { groups, placed } = groupsOf(plans)
  const environmentIds = await environmentIdsOf(tx, scope.workspaceId, scope.environmentKeys)
  if (environmentIds === undefined) return undefined
  // An app or repository filter, resolved once to the ids the counts and the facts keep.
  const selected =
    scope.appKey === undefined && scope.repositoryKey === undefined
      ? undefined
      : new Set(
          (
            await tx<{ id: string }[]>`
              select a.id::text from applications a join repositories r on r.id = a.repository_id
               where a.workspace_id = ${scope.workspaceId}
                 ${scope.appKey === undefined ? tx`` : tx`and a.name_key = ${scope.appKey}`}
                 ${scope.repositoryKey === undefined ? tx`` : tx`and r.full_name_key = ${scope.repositoryKey}`}`
          ).map(({ id }) => id),
        )
  const counting = { workspaceId: scope.workspaceId, environmentIds, selected }
  const [facts, counts] = await Promise.all([
    factsOfGroups(tx, { ...counting, groups }),
    Promise.all(plans.map(({ unit, plan }) => countWindowDeployments(tx, counting, unit, plan))),
  ])
  const factsOf = new Map(facts.map((row) => [`${row.group} ${row.applicationId}`, row]))
  return plans.map((plan, period) =>
    rowsOfPeriod(plan, placed[period] as PlacedPeriod, {
      factsOf,
      countsOf: counts[period] ?? new Map(),
    }),
  )
}

interface PlannedPeriod extends DoraPeriod {
  unit: BucketUnit
  plan: WindowPlan
  spans: BucketSpan[]
}

// Counted by the split's unit (the rollup's weeks for a weekly series), else by day.
function plannedPeriod(period: DoraPeriod): PlannedPeriod {
  const unit = period.split === 'week' ? 'week' : 'day'
  const plan = planWindow(unit, period.since, period.until)
  const spans = period.split === unit ? bucketSpans(unit, plan, period.since, period.until) : []
  return { ...period, unit, plan, spans }
}

/** A group of the statement: deployments of [from, to), together or per application. */
interface Group {
  perApplication: boolean
  from: bigint
  to: bigint
}

/** Where a period's rows stand among the statement's groups, by index. */
interface PlacedPeriod {
  whole: number | undefined
  applications: number | undefined
  buckets: number[]
}

/** The groups of every period, in one list the statement numbers, and where each period's are. */
function groupsOf(periods: PlannedPeriod[]): { groups: Group[]; placed: PlacedPeriod[] } {
  const groups: Group[] = []
  const add = (group: Group) => groups.push(group) - 1
  const placed = periods.map((period) => {
    const range = { from: period.since, to: period.until }
    return {
      whole: period.whole ? add({ ...range, perApplication: false }) : undefined,
      applications:
        period.split === 'application' ? add({ ...range, perApplication: true }) : undefined,
      buckets: period.spans.map(({ from, to }) => add({ from, to, perApplication: false })),
    }
  })
  return { groups, placed }
}

/** A row of the statement: a group's (by its index), or one application's in it. */
interface GroupRow extends Omit<DoraRow, 'deployments' | 'changes'> {
  group: number
  /** '0' for the whole group. */
  applicationId: string
  /** Redeploys and rollbacks: deployments that are not changes. */
  unchanged: number
}

/**
 * Everything but the deployment counts, for every group, in one statement. Its CTEs:
 * - `window_facts`: the stored facts of every deployment of the periods (and selection): most
 *   from an index-only scan of deployment_dora_facts_window, the rows with long lead-time lists
 *   from the heap (migration 0015; the bound is written out, as a parameter a generic plan could
 *   not use the partial indexes);
 * - `facts`: the few that say more than "a forward change" (redeploys, rollbacks, reverts);
 * - `signals`: the failure signals of those, of the rollbacks and reverts after the periods (none
 *   for a window that ends now) and of the environments' incidents (failure-signals.ts);
 * - `failed` and `reworked`: the periods' own failed deployments (each once, with its time to
 *   recover) and rework, each probed by primary key (a few hundred a year);
 * - `per_event`: per group, the deployments that are not changes, fail or are rework;
 * - `per_commit`: per group, the commits first delivered and their lead-time percentiles. Lead
 *   times are unnested in the select list (a lateral unnest costs a function scan per row), each
 *   group over an index range of its own: grouping hundreds of thousands first cost a sort.
 */
async function factsOfGroups(
  tx: Tx,
  read: {
    workspaceId: string
    environmentIds: string[]
    selected: Set<string> | undefined
    groups: Group[]
  },
): Promise<GroupRow[]> {
  const { groups, selected } = read
  const environmentIds = tx`${read.environmentIds}::bigint[]`
  const at = (micros: bigint) => tx`${isoOf(micros)}::text::timestamptz`
  const span = spanOf(groups)
  const since = at(span.since)
  const until = at(span.until)
  const ofSelected = (column: Fragment) =>
    selected ? tx`and ${column} = any(${[...selected]}::bigint[])` : tx``
  const factsBounded = (bound: Fragment) => tx`
    select f.deployment_id, f.application_id, f.environment_id, f.deployed_at, f.change_type,
           f.rollback_target, f.reverts, f.lead_seconds
      from deployment_dora_facts f
     where f.environment_id = any(${environmentIds})
       and f.deployed_at >= ${since} and f.deployed_at < ${until}
       and ${bound}
       ${ofSelected(tx`f.application_id`)}`
  const signalling = tx`(
    select deployment_id, application_id, environment_id, deployed_at, change_type,
           rollback_target, reverts
      from facts where change_type = 'rollback' or reverts
    union all
    select f.deployment_id, f.application_id, f.environment_id, f.deployed_at, f.change_type,
           f.rollback_target, f.reverts
      from deployment_dora_facts f
     where f.environment_id = any(${environmentIds}) and f.deployed_at >= ${until}
       and (f.change_type = 'rollback' or f.reverts)
       ${ofSelected(tx`f.application_id`)})`
  const incidents = tx`(
    select * from incidents
     where workspace_id = ${read.workspaceId} and environment_id = any(${environmentIds}))`
  const sources = { deployments: signalling, incidents }
  // Behind `offset 0`: joined, Postgres may read the periods' whole span to hash it.
  const inPeriods = (id: Fragment) => tx`
    select p.* from deployments p
     where p.id = ${id} and p.environment_id = any(${environmentIds}) and p.voided_at is null
       and p.deployed_at >= ${since} and p.deployed_at < ${until}
       ${ofSelected(tx`p.application_id`)}
    offset 0`
  // The percentiles sort a year's lead times (hundreds of thousands) in memory.
  await tx`set local work_mem = '64MB'`
  return tx<GroupRow[]>`
    with groups as (
      select * from unnest(${groups.map(({ from }) => isoOf(from))}::text[]::timestamptz[],
                           ${groups.map(({ to }) => isoOf(to))}::text[]::timestamptz[],
                           ${groups.map(({ perApplication }) => String(perApplication))}::text[]::boolean[])
             with ordinality as g(from_at, to_at, per_application, n)
    ),
    window_facts as not materialized (
      ${factsBounded(tx`cardinality(f.lead_seconds) <= 200`)}
      union all
      ${factsBounded(tx`cardinality(f.lead_seconds) > 200`)}
    ),
    facts as materialized (
      select f.* from window_facts f where f.change_type <> 'forward' or f.reverts
    ),
    signals as (${failureSignals(tx, sources)}),
    failed as (
      select d.deployed_at, d.application_id,
             coalesce((select f.change_type from deployment_dora_facts f where f.deployment_id = d.id),
                      'forward') in ('initial', 'forward') as change,
             extract(epoch from x.recovered_at - d.deployed_at)::float8 as recovery_seconds
        from (${earliestRecoveries(tx, tx`signals`)}) x
       cross join lateral (${inPeriods(tx`x.failed_id`)}) d
    ),
    reworked as (
      select d.deployed_at, d.application_id
        from (${reworkDeployments(tx, { signals: tx`signals`, deployments: tx`facts`, incidents })}) r
       cross join lateral (${inPeriods(tx`r.fixer_id`)}) d
    ),
    events as (
      select deployed_at, application_id, 'unchanged' as kind, null::boolean as change,
             null::float8 as recovery_seconds
        from facts where change_type in ('redeploy', 'rollback')
      union all
      select deployed_at, application_id, 'failed', change, recovery_seconds from failed
      union all
      select deployed_at, application_id, 'rework', null, null from reworked
    ),
    per_event as (
      select g.n, case when g.per_application then e.application_id else 0 end as application_id,
             (count(*) filter (where kind = 'unchanged'))::int as unchanged,
             (count(*) filter (where kind = 'failed' and change))::int as failed,
             (count(*) filter (where kind = 'failed' and recovery_seconds is not null))::int as recoveries,
             percentile_cont(0.5) within group (order by recovery_seconds)
               filter (where kind = 'failed' and recovery_seconds is not null) as recovery_median,
             (count(*) filter (where kind = 'failed' and recovery_seconds is null))::int as open,
             (count(*) filter (where kind = 'rework'))::int as rework
        from groups g join events e on e.deployed_at >= g.from_at and e.deployed_at < g.to_at
       group by 1, 2
    ),
    per_commit as (
      select g.n, 0::bigint as application_id, x.commits, x.percentiles
        from groups g
       cross join lateral (
         select count(*)::int as commits,
                percentile_cont(array[0.5, 0.9]) within group (order by seconds) as percentiles
           from (select unnest(f.lead_seconds) as seconds from window_facts f
                  where f.deployed_at >= g.from_at and f.deployed_at < g.to_at) lead_times) x
       where not g.per_application
      union all
      select g.n, x.application_id, x.commits, x.percentiles
        from groups g
       cross join lateral (
         select application_id, count(*)::int as commits,
                percentile_cont(array[0.5, 0.9]) within group (order by seconds) as percentiles
           from (select f.application_id, unnest(f.lead_seconds) as seconds from window_facts f
                  where f.deployed_at >= g.from_at and f.deployed_at < g.to_at) lead_times
          group by application_id) x
       where g.per_application
    )
    -- Seconds to the millisecond: percentiles interpolate in binary floating point.
    select (coalesce(c.n, e.n) - 1)::int as group,
           coalesce(c.application_id, e.application_id)::text as "applicationId",
           coalesce(c.commits, 0) as "leadCommits",
           round(c.percentiles[1]::numeric, 3)::float8 as "leadMedianSeconds",
           round(c.percentiles[2]::numeric, 3)::float8 as "leadP90Seconds",
           coalesce(e.unchanged, 0) as unchanged, coalesce(e.failed, 0) as failed,
           coalesce(e.recoveries, 0) as recoveries,
           round(e.recovery_median::numeric, 3)::float8 as "recoveryMedianSeconds",
           coalesce(e.open, 0) as open, coalesce(e.rework, 0) as rework
      from per_commit c full join per_event e
        on e.n = c.n and e.application_id = c.application_id`
}

/** From the first group's start to the last one's end. */
function spanOf(groups: Group[]): { since: bigint; until: bigint } {
  let since = groups[0]?.from ?? 0n
  let until = groups[0]?.to ?? 0n
  for (const { from, to } of groups) {
    if (from < since) since = from
    if (to > until) until = to
  }
  return { since, until }
}

const NO_FACTS: Omit<GroupRow, 'group' | 'applicationId'> = {
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

/** A period's rows: its groups' rows from the statement, with its deployment counts. */
function rowsOfPeriod(
  period: PlannedPeriod,
  placed: PlacedPeriod,
  read: { factsOf: Map<string, GroupRow>; countsOf: Map<string, number[]> },
): PeriodRows {
  const rowOf = (group: number, applicationId: string, deployments: number): DoraRow => {
    const {
      group: _,
      applicationId: __,
      unchanged,
      ...row
    } = read.factsOf.get(`${group} ${applicationId}`) ?? { group, applicationId, ...NO_FACTS }
    return { ...row, deployments, changes: deployments - unchanged }
  }
  const perBucket = new Array<number>(period.plan.bucketCount).fill(0)
  const perApplication = new Map<string, number>()
  for (const [applicationId, counts] of read.countsOf) {
    let total = 0
    counts.forEach((count, bucket) => {
      perBucket[bucket] = (perBucket[bucket] ?? 0) + count
      total += count
    })
    if (total > 0) perApplication.set(applicationId, total)
  }
  const total = perBucket.reduce((sum, count) => sum + count, 0)
  const { whole, applications } = placed
  return {
    since: period.since,
    until: period.until,
    whole: whole === undefined ? undefined : rowOf(whole, '0', total),
    buckets: period.spans.map((span, bucket) => ({
      ...span,
      row: rowOf(placed.buckets[bucket] as number, '0', perBucket[bucket] ?? 0),
    })),
    applications: new Map(
      applications === undefined
        ? []
        : [...perApplication].map(([applicationId, deployments]) => [
            applicationId,
            rowOf(applications, applicationId, deployments),
          ]),
    ),
  }
}
