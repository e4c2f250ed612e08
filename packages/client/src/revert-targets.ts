import {
  isFullSha,
  mergedPullRequest,
  type RevertClaim,
  squashedPullRequest,
  withoutPullRequest,
} from '@shiplog/schema/revert-forms'
import type { Git } from './git-checkout.ts'

/** How far back from the deployed commit a GitHub-button revert's target is looked for. */
export const REVERT_SEARCH_COMMITS = 10_000
/** The API takes at most this many reverted commits per commit. */
const MAX_REVERTS = 100
const FIELD = '\u001f'
const RECORD = '\u001e'

/** A commit of the list whose message claims to revert something. */
export interface ClaimingCommit {
  sha: string
  subject: string
  claim: RevertClaim
}

/**
 * What each claiming commit reverts (full SHAs), and one short note per claim that could not be
 * resolved to exactly one commit or pull request: those count as reverting nothing.
 */
export interface ResolvedReverts {
  reverts: Map<string, string[]>
  unresolved: string[]
}

interface Known {
  parents: string[]
  subject: string
  /** The pull request's title, the body's first line, of a GitHub merge commit. */
  title?: string
}

/**
 * Resolves claims against the history the checkout has: an abbreviated SHA to the one commit it
 * names; GitHub's `Revert "<subject>"` to the pull request `Reverts owner/repo#N` names (its merge
 * commit with the commits it merged, or its squash-merge commit `… (#N)`), else to the one earlier
 * commit or pull request with that subject or title, with or without a squash merge's ` (#N)`.
 * A target is only ever an ancestor of the reverting commit.
 */
export async function resolveReverts(
  read: Git,
  tip: string,
  claiming: ClaimingCommit[],
): Promise<ResolvedReverts> {
  const reverts = new Map<string, string[]>()
  const unresolved: string[] = []
  let history: Map<string, Known> | undefined
  for (const { sha, subject, claim } of claiming) {
    const label = `${sha.slice(0, 12)} (${subject.slice(0, 60)})`
    if (claim.form === 'shas') {
      const found: string[] = []
      for (const named of claim.shas) {
        const full = isFullSha(named) ? named : await fullSha(read, named)
        if (full === undefined) unresolved.push(`${label}: no one commit ${named} here`)
        else found.push(full)
      }
      if (found.length > 0) reverts.set(sha, found.slice(0, MAX_REVERTS))
      continue
    }
    history ??= await readHistory(read, tip)
    const target = await targetOf(read, history, sha, claim)
    if (Array.isArray(target)) reverts.set(sha, target.slice(0, MAX_REVERTS))
    else unresolved.push(`${label}: ${target}`)
  }
  return { reverts, unresolved }
}

async function fullSha(read: Git, abbreviated: string): Promise<string | undefined> {
  const answer = await read(['rev-parse', '--verify', '--quiet', `${abbreviated}^{commit}`])
  return answer.code === 0 ? answer.stdout.trim().toLowerCase() : undefined
}

/** The commits reachable from `tip`, newest first, at most REVERT_SEARCH_COMMITS of them. */
async function readHistory(read: Git, tip: string): Promise<Map<string, Known>> {
  const log = await read([
    'log',
    `--max-count=${REVERT_SEARCH_COMMITS}`,
    `--format=%H${FIELD}%P${FIELD}%s${FIELD}%b${RECORD}`,
    tip,
  ])
  const history = new Map<string, Known>()
  if (log.code !== 0) return history
  for (const record of log.stdout.split(RECORD)) {
    const [sha = '', parents = '', subject = '', body = ''] = record.replace(/^\n/, '').split(FIELD)
    if (!sha) continue
    const title = mergedPullRequest(subject) === undefined ? undefined : body.split('\n')[0]?.trim()
    history.set(sha, {
      parents: parents.split(' ').filter(Boolean),
      subject,
      ...(title === undefined ? {} : { title }),
    })
  }
  return history
}

/** The strict ancestors of `sha` within the history read. */
function ancestorsOf(history: Map<string, Known>, sha: string): Set<string> {
  const seen = new Set<string>()
  const queue = [...(history.get(sha)?.parents ?? [])]
  while (queue.length > 0) {
    const next = queue.pop() as string
    if (seen.has(next) || !history.has(next)) continue
    seen.add(next)
    queue.push(...(history.get(next)?.parents ?? []))
  }
  return seen
}

/** The commits a pull request's merge commit merged: `git rev-list <merge>^1..<merge>^2`. */
async function mergedCommits(read: Git, merge: string): Promise<string[]> {
  const listed = await read(['rev-list', `${merge}^1..${merge}^2`])
  return listed.code === 0 ? listed.stdout.split('\n').filter(Boolean) : []
}

/**
 * The one target among candidates: a merge commit stands for its pull request's commits, so a
 * commit of a pull request that also matched is the same target, not a second one.
 */
async function single(
  read: Git,
  history: Map<string, Known>,
  candidates: string[],
): Promise<string[] | number> {
  const targets = new Map<string, string[]>()
  for (const sha of candidates) {
    const known = history.get(sha)
    const merge = known !== undefined && known.parents.length > 1 && known.title !== undefined
    targets.set(sha, merge ? [sha, ...(await mergedCommits(read, sha))] : [sha])
  }
  const inner = new Set([...targets.values()].flatMap((commits) => commits.slice(1)))
  const kept = [...targets].filter(([sha]) => !inner.has(sha))
  return kept.length === 1 ? (kept[0]?.[1] ?? []) : kept.length
}

async function targetOf(
  read: Git,
  history: Map<string, Known>,
  sha: string,
  claim: Extract<RevertClaim, { form: 'title' }>,
): Promise<string[] | string> {
  const earlier = [...ancestorsOf(history, sha)]
  const subjectOf = (each: string) => history.get(each)?.subject ?? ''
  const byPullRequest = earlier.filter((each) => {
    const subject = subjectOf(each)
    const number = mergedPullRequest(subject) ?? squashedPullRequest(subject)
    return number !== undefined && claim.pullRequests.includes(number)
  })
  const viaPullRequest = byPullRequest.length > 0 ? await single(read, history, byPullRequest) : 0
  if (Array.isArray(viaPullRequest)) return viaPullRequest
  const byTitle = earlier.filter((each) => {
    const subject = subjectOf(each)
    return (
      subject === claim.title ||
      withoutPullRequest(subject) === claim.title ||
      history.get(each)?.title === claim.title
    )
  })
  const viaTitle = byTitle.length > 0 ? await single(read, history, byTitle) : 0
  if (Array.isArray(viaTitle)) return viaTitle
  const count = Math.max(viaPullRequest, viaTitle)
  return count === 0
    ? `nothing it reverts in the newest ${REVERT_SEARCH_COMMITS.toLocaleString('en')} commits`
    : `${count} commits or pull requests it may revert`
}
