// A GitHub `push` delivery: `forced` says whether it rewrote the branch; `commits` lists at most
// 2,048 commits (GitHub's cap), each with one `timestamp` unless `author.date` or
// `committer.date` is given.

import type { Delivery, IntegrationMapping } from '../mapping.ts'
import { dateOf, type PushOutcome, readPush } from '../push.ts'

/** GitHub lists at most this many commits in one push. */
export const GITHUB_PUSH_COMMITS_CAP = 2048

export function outcomeOfGitHubPush(delivery: Delivery, mapping: IntegrationMapping): PushOutcome {
  return readPush(delivery, mapping, {
    kind: 'push',
    repositoryPath: 'repository.full_name',
    defaultBranchPath: 'repository.default_branch',
    webUrlPath: 'repository.html_url',
    forced: (delivery.body as { forced?: unknown } | null)?.forced === true,
    // A list at the cap may have been cut: GitHub does not say how many there were.
    total: (listed) => (listed >= GITHUB_PUSH_COMMITS_CAP ? listed + 1 : listed),
    commitTimes: (commit) => ({
      committedAt: dateOf(commit, 'committer'),
      authoredAt: dateOf(commit, 'author'),
    }),
  })
}
