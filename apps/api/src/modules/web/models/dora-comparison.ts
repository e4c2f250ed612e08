import type { Sql } from '@shiplog/db/client'
import { doraComparison } from '@shiplog/db/dora/comparison'
import { daysBetween, figuresOf } from '@shiplog/db/dora/five-keys'
import { isoOf } from '@shiplog/db/dora/time-units'
import { type DoraQuery, EARLIEST_MICROS, nameKey } from '@shiplog/schema'
import { MAX_DORA_SPAN } from '../../dora/service.ts'
import type { DoraComparisonView } from '../views/dora.ts'

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
  if (since >= until || until - since > MAX_DORA_SPAN || 2n * since - until < EARLIEST_MICROS) {
    return undefined
  }
  const comparison = await doraComparison(sql, {
    workspaceId,
    environmentKeys: environments.map(nameKey),
    appKey: query.app === undefined ? undefined : nameKey(query.app),
    repositoryKey: query.repository === undefined ? undefined : nameKey(query.repository),
    since,
    until,
    bucket: 'day',
  })
  if (!comparison) return undefined
  const { previous } = comparison
  return {
    previous: {
      since: isoOf(previous.since),
      until: isoOf(previous.until),
      ...figuresOf(previous.row, daysBetween(previous.since, previous.until)),
    },
    applications: comparison.applications.map(({ app, repository, row }) => ({
      app,
      repository,
      figures: figuresOf(row, daysBetween(since, until)),
    })),
  }
}
