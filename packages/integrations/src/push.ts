// A push to a repository's default branch, the same for every Git host: what a deployment's
// commits are derived from (docs/integrations.md, "Commits from pushes"). Hosts list a push's
// commits oldest first, without their parents; some cap the list (`total` says how many there
// were), and GitLab does not say whether a push was forced.

import { type Delivery, type IntegrationMapping, mappedValue, valueAt } from './mapping.ts'

/** One commit as a push lists it. */
export interface PushedCommit {
  sha: string
  committedAt: string
  authoredAt: string
  /** The whole message: its revert claims are read from it. */
  message: string
  author: string | null
}

export interface Push {
  repositoryFullName: string
  /** All zeros when the push created the branch. */
  before: string
  after: string
  forced: boolean
  /** Oldest first, as the host lists them. */
  commits: PushedCommit[]
  /** How many commits the push had: more than `commits.length` when the host capped its list. */
  total: number
  webUrl: string | null
}

export type PushOutcome = { outcome: 'push'; push: Push } | { outcome: 'ignored'; reason: string }

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/
const isZeros = (sha: string) => /^0+$/.test(sha)

/**
 * Reads what every host's push has in common: the branch (only the default branch's pushes
 * count), its two ends and its commits. `commitTimes` reads one listed commit's two times.
 */
export function readPush(
  delivery: Delivery,
  mapping: IntegrationMapping,
  host: {
    kind: string
    repositoryPath: string
    defaultBranchPath: string
    webUrlPath: string
    forced: boolean
    total: (listed: number) => number
    commitTimes: (commit: Record<string, unknown>) => { committedAt?: string; authoredAt?: string }
  },
): PushOutcome {
  const at = (path: string) => valueAt(delivery, path)
  const ref = at('ref')
  const before = at('before')?.toLowerCase()
  const after = at('after')?.toLowerCase()
  const repository = mappedValue(mapping.repository, delivery) ?? at(host.repositoryPath)
  if (ref === undefined || before === undefined || after === undefined || !repository) {
    return {
      outcome: 'ignored',
      reason: `not a ${host.kind} delivery: it lacks ref, before, after or ${host.repositoryPath}`,
    }
  }
  if (ref.startsWith('refs/tags/')) {
    return {
      outcome: 'ignored',
      reason: `a tag push (${ref}): only pushes to the default branch carry a deployment's commits`,
    }
  }
  const defaultBranch = at(host.defaultBranchPath)
  if (ref !== `refs/heads/${defaultBranch}`) {
    return {
      outcome: 'ignored',
      reason: `a push to ${ref}, not to the default branch (${defaultBranch ?? 'unknown'}): only the default branch's commits reach a deployment`,
    }
  }
  if (isZeros(after)) {
    return { outcome: 'ignored', reason: `the default branch ${defaultBranch} was deleted` }
  }
  if (!SHA.test(before) || !SHA.test(after)) {
    return { outcome: 'ignored', reason: 'before and after are not full commit SHAs' }
  }
  const listed = (delivery.body as { commits?: unknown }).commits
  const commits: PushedCommit[] = []
  for (const each of Array.isArray(listed) ? listed : []) {
    const commit = readCommit(each, host.commitTimes)
    if (commit === undefined) {
      return {
        outcome: 'ignored',
        reason: 'a listed commit lacks its id, timestamp or message: its commits could not be read',
      }
    }
    commits.push(commit)
  }
  return {
    outcome: 'push',
    push: {
      repositoryFullName: repository,
      before,
      after,
      forced: host.forced,
      commits,
      total: Math.max(host.total(commits.length), commits.length),
      webUrl: at(host.webUrlPath) ?? null,
    },
  }
}

function readCommit(
  value: unknown,
  commitTimes: (commit: Record<string, unknown>) => { committedAt?: string; authoredAt?: string },
): PushedCommit | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const commit = value as Record<string, unknown>
  const sha = typeof commit.id === 'string' ? commit.id.toLowerCase() : ''
  const message = typeof commit.message === 'string' ? commit.message : undefined
  const { committedAt, authoredAt } = commitTimes(commit)
  if (!SHA.test(sha) || message === undefined || !committedAt || !authoredAt) return undefined
  const author = (commit.author as { name?: unknown } | null | undefined)?.name
  return {
    sha,
    committedAt,
    authoredAt,
    message,
    author: typeof author === 'string' && author.trim() ? author : null,
  }
}

/** A commit's date field (`author.date`) when the host gives one, else its `timestamp`. */
export function dateOf(commit: Record<string, unknown>, who: 'author' | 'committer') {
  const person = commit[who] as { date?: unknown } | null | undefined
  if (typeof person?.date === 'string') return person.date
  return typeof commit.timestamp === 'string' ? commit.timestamp : undefined
}
