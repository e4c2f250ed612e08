import type { Fragment } from '../client.ts'
import { isoOf } from './time-units.ts'
import type { WindowScope } from './window-scope.ts'

/**
 * CTE `per_commit`, from `window_facts`: the number of commits first delivered and the median
 * and 90th percentile of their lead times, for the window (bucket -1) and per bucket. Lead times
 * are unnested in the select list (a lateral unnest costs a function scan per row): once for the
 * window, then bucket by bucket, each an index range of its own, as grouping the window's
 * hundreds of thousands by bucket first cost a sort of them all.
 */
export function leadTimePercentiles(w: WindowScope): Fragment {
  const { tx, spans } = w
  return tx`
    select -1 as bucket, count(*)::int as commits,
           percentile_cont(array[0.5, 0.9]) within group (order by seconds) as percentiles
      from (select unnest(lead_seconds) as seconds from window_facts) lead_times
    union all
    select (b.n - 1)::int, x.commits, x.percentiles
      from unnest(${spans.map((span) => isoOf(span.from))}::text[]::timestamptz[],
                  ${spans.map((span) => isoOf(span.to))}::text[]::timestamptz[])
           with ordinality as b(from_at, to_at, n)
     cross join lateral (
       select count(*)::int as commits,
              percentile_cont(array[0.5, 0.9]) within group (order by seconds) as percentiles
         from (select unnest(f.lead_seconds) as seconds from window_facts f
                where f.deployed_at >= b.from_at and f.deployed_at < b.to_at) lead_times) x`
}
