// The count done the slow way, one deployment at a time, that deploymentFrequency must equal in
// dora/deployment-frequency.test.ts.

import { nameKey } from '@shiplog/schema'
import type { DeploymentJob } from '../deployment-job.ts'
import type { FrequencyCounts } from '../dora/deployment-frequency.ts'
import type { BucketUnit } from '../dora/time-units.ts'
import { DAY, WEEK } from './frequency-scenarios.ts'
import type { Content } from './recorded-jobs.ts'

const keyOf = (...parts: (string | number | bigint)[]) => parts.join('\u0000')

/**
 * What the recorded batches hold, by the rules of recordDeployments: one deployment per distinct
 * (workspace, repository, app, environment, version, commit, instant), names compared by key; a
 * name keeps the spelling of the lowest job id in the first batch that used it.
 */
export function recorded(batches: { job: DeploymentJob; content: Content }[][]) {
  const deployments = new Map<string, Content>()
  const spelling = new Map<string, string>()
  for (const batch of batches) {
    const byId = [...batch].sort((a, b) => (a.job.id < b.job.id ? -1 : a.job.id > b.job.id ? 1 : 0))
    const firstSeen = new Map<string, string>()
    for (const { content: c } of byId) {
      const repository = keyOf(c.workspace, nameKey(c.repository))
      const app = keyOf(repository, nameKey(c.app))
      if (!spelling.has(repository) && !firstSeen.has(repository))
        firstSeen.set(repository, c.repository)
      if (!spelling.has(app) && !firstSeen.has(app)) firstSeen.set(app, c.app)
      const key = keyOf(app, nameKey(c.environment), c.version, c.commitHash, c.at)
      if (!deployments.has(key)) deployments.set(key, c)
    }
    for (const [key, name] of firstSeen) spelling.set(key, name)
  }
  return { deployments: [...deployments.values()], spelling }
}

/** Start of the bucket holding `micros`, from the calendar: midnight, or the Monday before. */
function bucketStartOf(unit: BucketUnit, micros: bigint): bigint {
  const day = (micros - (((micros % DAY) + DAY) % DAY)) / DAY
  const weekday = new Date(Number(day) * 86_400_000).getUTCDay()
  return (unit === 'day' ? day : day - BigInt((weekday + 6) % 7)) * DAY
}

/** The answer counted one deployment at a time. */
export function bruteForce(
  { deployments, spelling }: ReturnType<typeof recorded>,
  query: { unit: BucketUnit; workspace: 0 | 1; environment: string; since: bigint; until: bigint },
): FrequencyCounts {
  const width = query.unit === 'day' ? DAY : WEEK
  const first = bucketStartOf(query.unit, query.since)
  const last = bucketStartOf(query.unit, query.until - 1n)
  const buckets: string[] = []
  for (let start = first; start <= last; start += width)
    buckets.push(new Date(Number(start / 1000n)).toISOString())
  const perApp = new Map<string, { repoKey: string; appKey: string; counts: number[] }>()
  for (const c of deployments) {
    if (c.workspace !== query.workspace) continue
    if (nameKey(c.environment) !== nameKey(query.environment)) continue
    if (c.at < query.since || c.at >= query.until) continue
    const repoKey = keyOf(c.workspace, nameKey(c.repository))
    const appKey = keyOf(repoKey, nameKey(c.app))
    const app = perApp.get(appKey) ?? {
      repoKey,
      appKey,
      counts: new Array<number>(buckets.length).fill(0),
    }
    const index = Number((bucketStartOf(query.unit, c.at) - first) / width)
    app.counts[index] = (app.counts[index] ?? 0) + 1
    perApp.set(appKey, app)
  }
  const applications = [...perApp.values()]
    .sort((a, b) =>
      a.repoKey !== b.repoKey ? (a.repoKey < b.repoKey ? -1 : 1) : a.appKey < b.appKey ? -1 : 1,
    )
    .map(({ repoKey, appKey, counts }) => ({
      app: spelling.get(appKey) as string,
      repositoryFullName: spelling.get(repoKey) as string,
      counts,
    }))
  const totals = buckets.map((_, index) =>
    applications.reduce((sum, { counts }) => sum + (counts[index] ?? 0), 0),
  )
  return { buckets, applications, totals }
}
