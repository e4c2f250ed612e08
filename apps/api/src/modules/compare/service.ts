import type { Sql } from '@shiplog/db/client'
import type { KeyOwner } from '@shiplog/db/queries/api-keys'
import {
  type CompareLimits,
  compareStreams,
  currentDeployment,
  findCompareSides,
  type StreamComparison,
} from '@shiplog/db/queries/compare'
import { type CompareQuery, type Comparison, commitUrl, nameKey } from '@shiplog/schema'
import { problems } from '../../kernel/problems.ts'

/** How far one comparison reads: 100 deployments of `from`, 1,000 commits answered. */
export const COMPARE_LIMITS: CompareLimits = { walk: 100, commits: 1_000 }

/** Why a comparison's commits may be incomplete, in a sentence; null when they are not. */
export function incompleteness(
  comparison: StreamComparison,
  names: { from: string; to: string },
  limits: CompareLimits,
): string | null {
  const reasons: string[] = []
  const unlisted = comparison.waiting.filter((deployment) => !deployment.listed).length
  if (unlisted > 0) {
    reasons.push(
      `${unlisted} of the ${comparison.waiting.length} deployments waiting sent no commit list (shiplog notify and the Action send one, a first deployment included; a pipeline that posts the API itself may not)`,
    )
  }
  if (comparison.waiting.some((deployment) => deployment.truncated)) {
    reasons.push('a commit list was capped at its newest 5,000')
  }
  if (comparison.reachedLimit) {
    reasons.push(
      `none of the newest ${limits.walk} deployments of ${names.from} runs a commit ${names.to} has: only they are compared`,
    )
  }
  if (comparison.commits.length > limits.commits) {
    reasons.push(
      `more than ${limits.commits} commits wait: the newest ${limits.commits} are listed`,
    )
  }
  return reasons.length === 0 ? null : `${reasons.join('; ')}.`
}

/**
 * `GET /v1/compare`: what `from` runs that `to` does not, for one application. 404 for an
 * application or environment the workspace does not have; 422 when the name is an application of
 * several repositories and none is named, or when both sides are one environment.
 */
export async function compareEnvironments(
  sql: Sql,
  owner: Pick<KeyOwner, 'workspaceId'>,
  query: CompareQuery,
  limits: CompareLimits = COMPARE_LIMITS,
): Promise<Comparison> {
  const [fromKey, toKey] = [nameKey(query.from), nameKey(query.to)]
  if (fromKey === toKey) {
    throw problems.validation([{ field: 'to', message: 'must be another environment than from' }])
  }
  const sides = await findCompareSides(sql, owner.workspaceId, {
    appKey: nameKey(query.app),
    ...(query.repository === undefined ? {} : { repositoryKey: nameKey(query.repository) }),
    fromKey,
    toKey,
  })
  const [application, ...others] = sides.applications
  if (!application) {
    throw problems.notFound(
      'No such application in your workspace (or in that repository): it appears once a deployment of it is recorded.',
    )
  }
  if (others.length > 0) {
    const repositories = sides.applications.map((each) => each.repositoryFullName).join(', ')
    throw problems.validation([
      {
        field: 'repository',
        message: `is needed: ${application.app} is an application of ${sides.applications.length} repositories (${repositories})`,
      },
    ])
  }
  const { from, to } = sides
  if (!from || !to) {
    throw problems.notFound(
      `No environment ${from ? query.to : query.from} in your workspace: it appears once a deployment to it is recorded.`,
    )
  }
  const [fromNow, toNow] = await Promise.all([
    currentDeployment(sql, owner.workspaceId, application.id, from.id),
    currentDeployment(sql, owner.workspaceId, application.id, to.id),
  ])
  const comparison = fromNow
    ? await compareStreams(
        sql,
        { applicationId: application.id, fromId: from.id, toId: to.id },
        limits,
      )
    : { waiting: [], reachedLimit: false, commits: [] }
  const reason = incompleteness(comparison, { from: from.name, to: to.name }, limits)
  return {
    app: application.app,
    repositoryFullName: application.repositoryFullName,
    from: { environment: from.name, deployment: fromNow ?? null },
    to: { environment: to.name, deployment: toNow ?? null },
    commits: comparison.commits.slice(0, limits.commits).map(({ webUrl, ...commit }) => ({
      ...commit,
      url: webUrl === null ? null : commitUrl(webUrl, commit.sha),
    })),
    deployments: comparison.waiting.map(
      ({ listed: _, truncated: __, ...deployment }) => deployment,
    ),
    complete: reason === null,
    reason,
  }
}

/** How many commits wait between two environments of an application: the overview's count. */
export async function waitingBetween(
  sql: Sql,
  stream: { applicationId: string; fromId: string; toId: string },
  limits: CompareLimits = COMPARE_LIMITS,
): Promise<{ commits: number; complete: boolean }> {
  const comparison = await compareStreams(sql, stream, limits)
  const complete = incompleteness(comparison, { from: '', to: '' }, limits) === null
  return { commits: Math.min(comparison.commits.length, limits.commits), complete }
}
