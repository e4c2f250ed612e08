import type { Sql } from '@shiplog/db/client'
import { doraComparison } from '@shiplog/db/dora/comparison'
import { figuresOf } from '@shiplog/db/dora/figures'
import { DAY_MICROS, isoOf } from '@shiplog/db/dora/time-units'
import { type DoraQuery, EARLIEST_MICROS, nameKey } from '@shiplog/schema'
import type { DoraComparisonView } from '../views/dora.ts'

// As the API's window rule (dora/five-keys-service.ts): longer windows are refused there.
const MAX_SPAN = 400n * DAY_MICROS

/**
 * The previous period and each application of the DORA page's window, or undefined when there is
 * nothing to compare: a window the API refuses (its own answer says why), one whose previous
 * period would start before year 1, or an environment the workspace lacks.
 */
export async function doraComparisonOf(
  sql: Sql,
  workspaceId: string,
  environments: string[],
  query: DoraQuery & { since: { micros: bigint }; until: { micros: bigint } },
): Promise<DoraComparisonView | undefined> {
  const since = query.since.micros
  const until = query.until.micros
  if (since >= until || until - since > MAX_SPAN || 2n * since - until < EARLIEST_MICROS) {
    return undefined
  }
  const comparison = await doraComparison(sql, {
    workspaceId,
    environmentKeys: environments.map(nameKey),
    ...(query.app === undefined ? {} : { appKey: nameKey(query.app) }),
    ...(query.repository === undefined ? {} : { repositoryKey: nameKey(query.repository) }),
    since,
    until,
    bucket: 'day',
  })
  if (!comparison) return undefined
  const days = (from: bigint, to: bigint) => Number(to - from) / Number(DAY_MICROS)
  const { previous } = comparison
  return {
    previous: {
      since: isoOf(previous.since),
      until: isoOf(previous.until),
      ...figuresOf(previous.row, days(previous.since, previous.until)),
    },
    applications: comparison.applications.map(({ app, repository, row }) => ({
      app,
      repository,
      figures: figuresOf(row, days(since, until)),
    })),
  }
}
