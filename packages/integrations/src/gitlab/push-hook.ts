// A GitLab `Push Hook` delivery: `commits` holds the newest 20 at most, `total_commits_count`
// the real number. GitLab does not say whether a push was forced.

import type { Delivery, IntegrationMapping } from '../mapping.ts'
import { dateOf, type PushOutcome, readPush } from '../push.ts'

export function outcomeOfPushHook(delivery: Delivery, mapping: IntegrationMapping): PushOutcome {
  const total = (delivery.body as { total_commits_count?: unknown } | null)?.total_commits_count
  return readPush(delivery, mapping, {
    kind: 'Push Hook',
    repositoryPath: 'project.path_with_namespace',
    defaultBranchPath: 'project.default_branch',
    webUrlPath: 'project.web_url',
    forced: false,
    total: (listed) => (typeof total === 'number' && Number.isInteger(total) ? total : listed),
    commitTimes: (commit) => ({
      committedAt: dateOf(commit, 'committer'),
      authoredAt: dateOf(commit, 'author'),
    }),
  })
}
