// The failed deployments and the rework of a window, from its CTE `signals` (failure-signals.ts):
// only deployments of the window count, each probed by primary key (a few hundred a year).

import type { Fragment } from '../client.ts'
import { earliestRecoveries } from './failure-signals.ts'
import type { WindowScope } from './window-scope.ts'

/**
 * CTE `failed`, from `signals`: each failed deployment of the window once, with its bucket,
 * whether it was a change (an initial or forward deployment) and its time to recover.
 */
export function failedInWindow(w: WindowScope): Fragment {
  const { tx } = w
  return tx`
    select ${w.groupOf(tx`d`)} as bucket,
           coalesce((select f.change_type from deployment_dora_facts f where f.deployment_id = d.id),
                    'forward') in ('initial', 'forward') as change,
           extract(epoch from x.recovered_at - d.deployed_at)::float8 as recovery_seconds
      from (${earliestRecoveries(tx, tx`signals`)}) x
     cross join lateral (${w.inWindow(tx`x.failed_id`)}) d`
}

/**
 * CTE `reworked`, from `signals` and `facts`: the window's rework, each deployment once, with
 * its bucket: rollbacks, deployments whose commits revert a failed one, and deployments that
 * fixed an incident (notify --fixes), whatever its cause.
 */
export function reworkInWindow(w: WindowScope): Fragment {
  const { tx } = w
  return tx`
    select ${w.groupOf(tx`d`)} as bucket
      from (select fixer_id from signals where fixer_id is not null
            union
            select deployment_id from facts where change_type = 'rollback'
            union
            select i.fixed_by_deployment_id from ${w.incidents} i
             where i.fixed_by_deployment_id is not null) r
     cross join lateral (${w.inWindow(tx`r.fixer_id`)}) d`
}
