import type { Fragment } from '../client.ts'
import type { WindowScope } from './window-scope.ts'

// The window's facts: most from an index-only scan of deployment_dora_facts_window, the rows
// with long lead-time lists from the heap (migration 0015). The bound is that migration's,
// written out: as a parameter, a generic plan could not use the partial indexes.
function factsBounded(w: WindowScope, bound: Fragment): Fragment {
  const { tx } = w
  return tx`
    select f.deployment_id, f.application_id, f.environment_id, f.deployed_at, f.change_type,
           f.rollback_target, f.reverts, f.lead_seconds
      from deployment_dora_facts f
     where f.environment_id = any(${w.environmentIds})
       and f.deployed_at >= ${w.since} and f.deployed_at < ${w.until}
       and ${bound}
       ${w.ofSelected(tx`f.application_id`)}`
}

/** CTE `window_facts`: the stored facts of every deployment of the window (and selection). */
export function windowFacts(w: WindowScope): Fragment {
  return w.tx`
    ${factsBounded(w, w.tx`cardinality(f.lead_seconds) <= 200`)}
    union all
    ${factsBounded(w, w.tx`cardinality(f.lead_seconds) > 200`)}`
}

/**
 * CTE `facts`, from `window_facts`: the few rows that say more than "a forward change"
 * (redeploys, rollbacks, reverting deployments), each with its bucket. The window's failure
 * signals start there.
 */
export function eventfulFacts(w: WindowScope): Fragment {
  return w.tx`
    select f.*, ${w.groupOf(w.tx`f`)} as bucket
      from window_facts f where f.change_type <> 'forward' or f.reverts`
}
