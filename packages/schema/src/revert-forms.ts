/**
 * What a commit's message says it reverts, in the forms real histories write (decisions §8):
 * - `shas`: `git revert` and GitLab's button, a body line `This reverts commit <sha>` (full, or
 *   abbreviated by hand);
 * - `title`: GitHub's button, `Revert "<subject>"` (with ` (#M)` after it when the revert's pull
 *   request was squash-merged), and perhaps a body line `Reverts owner/repo#N` naming the pull
 *   request it reverts. A revert of a revert (`Revert "Revert "…""`) is the same form: it names
 *   the revert it re-applies.
 * Undefined for a message that reverts nothing.
 */
export type RevertClaim =
  | { form: 'shas'; shas: string[] }
  | { form: 'title'; title: string; pullRequests: number[] }

// Any length git abbreviates to (at least 7) up to a full SHA-256.
const REVERTS_COMMIT = /This reverts commit ([0-9a-fA-F]{7,64})\b/g
// Greedy, so that `Revert "Revert "x""` names `Revert "x"`.
const REVERT_SUBJECT = /^Revert "(.+)"(?: \(#\d+\))?$/
const REVERTS_PULL_REQUEST = /^Reverts [^\s#]+\/[^\s#]+#(\d+)\s*$/gm

/** The claim of one commit, from its subject (`%s`) and its whole message (`%B`). */
export function revertClaim(subject: string, message: string): RevertClaim | undefined {
  const shas = [...message.matchAll(REVERTS_COMMIT)].map((match) => (match[1] ?? '').toLowerCase())
  if (shas.length > 0) return { form: 'shas', shas: [...new Set(shas)] }
  const title = REVERT_SUBJECT.exec(subject.trim())?.[1]
  if (title === undefined) return undefined
  const pullRequests = [...message.matchAll(REVERTS_PULL_REQUEST)].map((match) => Number(match[1]))
  return { form: 'title', title, pullRequests: [...new Set(pullRequests)] }
}

/** Whether a SHA is written in full (40 or 64 digits), so it needs no lookup. */
export const isFullSha = (sha: string) => sha.length === 40 || sha.length === 64

/** The pull request a GitHub merge commit merged (`Merge pull request #N from …`). */
export function mergedPullRequest(subject: string): number | undefined {
  const number = /^Merge pull request #(\d+) from /.exec(subject)?.[1]
  return number === undefined ? undefined : Number(number)
}

/** The pull request a squash-merge commit names at the end of its subject (`… (#N)`). */
export function squashedPullRequest(subject: string): number | undefined {
  const number = / ?\(#(\d+)\)$/.exec(subject)?.[1]
  return number === undefined ? undefined : Number(number)
}

/** A subject without the ` (#N)` a squash merge appends. */
export const withoutPullRequest = (subject: string) => subject.replace(/ \(#\d+\)$/, '')
