// The failed deployments and the rework of a window, from its CTE `signals` (failure-signals.ts):
// only deployments of the window count, each probed by primary key (a few hundred a year).

import type { Fragment } from '../client.ts'
import { earliestRecoveries, reworkDeployments } from './failure-signals.ts'
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

/** CTE `reworked`, from `signals` and `facts`: the window's rework (reworkDeployments), with its bucket. */
export function reworkInWindow(w: WindowScope): Fragment {
  const { tx } = w
  return tx`
    select ${w.groupOf(tx`d`)} as bucket
      from (${reworkDeployments(tx, { signals: tx`signals`, deployments: tx`facts`, incidents: w.incidents })}) r
     cross join lateral (${w.inWindow(tx`r.fixer_id`)}) d`
}
