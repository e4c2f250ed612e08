// A GitLab `Deployment Hook` delivery as a Shiplog deployment. One GitLab deployment goes
// through running, success, failed or canceled; only `success` records one:
// - repository: the mapping's, else the project's full path (`project.path_with_namespace`,
//   nested groups kept);
// - environment: the mapping's, else `environment`;
// - app: the mapping's, else the project's name in its path;
// - version: the mapping's, else the commit's first 12 characters;
// - commit: the full SHA at the end of `commit_url` (GitLab sends only `short_sha` by itself),
//   else `short_sha`;
// - time: `status_changed_at`, which GitLab writes as `YYYY-MM-DD hh:mm:ss +0000` (or `UTC`);
// - author: `user.username`.
// `failed` after a success says that the deployment failed: what a failure signal is made from.
// `running` and `canceled` are ignored, with the reason in words.

import { type Delivery, type IntegrationMapping, mappedValue, valueAt } from '../mapping.ts'
import { type DeliveryOutcome, lacking, outcomeOfState } from '../outcome.ts'

const GITLAB_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) (?:([+-])(\d{2})(\d{2})|UTC)$/

/** GitLab's `2021-04-28 21:50:00 +0200` (or `… UTC`) as RFC 3339, or undefined. */
export function rfc3339OfGitLabTime(text: string): string | undefined {
  const match = GITLAB_TIME.exec(text)
  if (!match) return undefined
  const [, day, time, sign, hours, minutes] = match
  return sign === undefined ? `${day}T${time}Z` : `${day}T${time}${sign}${hours}:${minutes}`
}

/** The full SHA a commit URL ends with (`…/-/commit/<sha>`), when it extends the short one. */
function fullSha(commitUrl: string | undefined, shortSha: string): string {
  const last = commitUrl?.split('/').at(-1) ?? ''
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(last) && last.startsWith(shortSha) ? last : shortSha
}

/** What a Deployment Hook delivery means for Shiplog under an integration's mapping. */
export function outcomeOfDeploymentHook(
  delivery: Delivery,
  mapping: IntegrationMapping,
): DeliveryOutcome {
  const at = (path: string) => valueAt(delivery, path)
  const status = at('status')
  const shortSha = at('short_sha')
  const repository = mappedValue(mapping.repository, delivery) ?? at('project.path_with_namespace')
  if (status === undefined || shortSha === undefined || repository === undefined) {
    return lacking('Deployment Hook', ['status', 'short_sha', 'project.path_with_namespace'])
  }
  const changedAt = at('status_changed_at')
  const deployedAt = changedAt === undefined ? undefined : rfc3339OfGitLabTime(changedAt)
  const unfinished = outcomeOfState({
    stateName: 'Deployment Hook status',
    state: status,
    failedStates: ['failed'],
    senderDeploymentId: at('deployment_id'),
    at: deployedAt,
  })
  if (unfinished) return unfinished
  if (changedAt !== undefined && deployedAt === undefined) {
    return {
      outcome: 'ignored',
      reason: `status_changed_at '${changedAt}' is not a time GitLab writes (YYYY-MM-DD hh:mm:ss +0000)`,
    }
  }
  const sha = fullSha(at('commit_url'), shortSha)
  return {
    outcome: 'record',
    senderDeploymentId: at('deployment_id'),
    deployment: {
      repositoryFullName: repository,
      environment: mappedValue(mapping.environment, delivery) ?? at('environment') ?? null,
      app: mappedValue(mapping.app, delivery) ?? repository.split('/').at(-1) ?? null,
      version: mappedValue(mapping.version, delivery) ?? sha.slice(0, 12),
      commitHash: mappedValue(mapping.commit, delivery) ?? sha,
      deployedAt: deployedAt ?? null,
      author: at('user.username') ?? null,
      description: null,
    },
  }
}
