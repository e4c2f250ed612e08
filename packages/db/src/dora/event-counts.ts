import type { Fragment } from '../client.ts'
import type { WindowScope } from './window-scope.ts'

/**
 * CTE `events`, from `facts`, `failed` and `reworked`: the few deployments that are not
 * changes (redeploys and rollbacks), fail or are rework, one row each with its bucket.
 */
export function events(w: WindowScope): Fragment {
  return w.tx`
    select bucket, 'unchanged' as kind, null::boolean as change, null::float8 as recovery_seconds
      from facts where change_type in ('redeploy', 'rollback')
    union all
    select bucket, 'failed', change, recovery_seconds from failed
    union all
    select bucket, 'rework', null, null from reworked`
}

/** CTE `per_event`, from `events`: their counts and the median recovery, per bucket and -1 for the window. */
export function eventCounts(w: WindowScope): Fragment {
  return w.tx`
    select coalesce(bucket, -1) as bucket,
           (count(*) filter (where kind = 'unchanged'))::int as unchanged,
           (count(*) filter (where kind = 'failed' and change))::int as failed,
           (count(*) filter (where kind = 'failed' and recovery_seconds is not null))::int as recoveries,
           percentile_cont(0.5) within group (order by recovery_seconds)
             filter (where kind = 'failed' and recovery_seconds is not null) as recovery_median,
           (count(*) filter (where kind = 'failed' and recovery_seconds is null))::int as open,
           (count(*) filter (where kind = 'rework'))::int as rework
      from events group by grouping sets ((), (bucket))`
}
