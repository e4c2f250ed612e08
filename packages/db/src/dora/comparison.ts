// What the DORA page sets beside a window's figures: the same figures over the period of the same
// length just before it, and each application's over the window, from the one DORA statement
// (statement.ts), so a period's figures equal those of asking it alone.

import type { Sql } from '../client.ts'
import { inSnapshot } from '../read/snapshot.ts'
import type { DoraWindow } from './five-keys.ts'
import { type DoraRow, doraStatement } from './statement.ts'

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

/**
 * The comparison of the window ([since, until); its bucket is not read): undefined when the
 * workspace has no such environment. Applications without a deployment in the window are left out.
 */
export function doraComparison(sql: Sql, window: DoraWindow): Promise<DoraComparison | undefined> {
  const { since, until } = window
  const previousSince = 2n * since - until
  // One snapshot: the statement joins it, and the names are those of the applications it counted.
  return inSnapshot(sql, async (tx) => {
    const periods = await doraStatement(tx, window, [
      { since: previousSince, until: since, whole: true },
      { since, until, whole: false, split: 'application' },
    ])
    const [previous, current] = periods ?? []
    if (!previous?.whole || !current) return undefined
    const ids = [...current.applications.keys()]
    const names = await tx<{ id: string; app: string; repository: string }[]>`
    select a.id::text, a.name as app, r.full_name as repository
      from applications a join repositories r on r.id = a.repository_id
     where a.id = any(${ids}::bigint[])`
    const nameOf = new Map(names.map(({ id, ...name }) => [id, name]))
    return {
      previous: { since: previousSince, until: since, row: previous.whole },
      applications: ids.map((id) => ({
        ...(nameOf.get(id) as { app: string; repository: string }),
        row: current.applications.get(id) as DoraRow,
      })),
    }
  })
}
