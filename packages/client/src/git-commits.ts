import { MAX_DEPLOYMENT_COMMITS } from '@shiplog/schema'
import type { CommandResult } from './runtime.ts'

/** Runs git with these arguments in the pipeline's checkout. */
export type Git = (args: string[]) => Promise<CommandResult>

/** One commit as PUT /v1/deployments/{id}/commits takes it. */
export interface GitCommit {
  sha: string
  committedAt: string
  authoredAt: string
  reverts: string[]
}

/** What the checkout says a deployment delivered, or why it cannot say. */
export type CollectedCommits =
  | { ok: true; commits: GitCommit[]; truncated: boolean }
  | { ok: false; reason: string; notCheckout?: true }

const REVERTS = /This reverts commit ([0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?)/g
const FIELD = '\u001f'
const RECORD = '\u001e'
const SHALLOW_HINT =
  'this checkout is shallow and its history could not be fetched: check out the full history ' +
  '(GitHub actions/checkout: fetch-depth: 0; GitLab: GIT_DEPTH: 0)'

/** The commits of one `git log` record: sha, committer and author time, and what it reverts. */
function parseRecord(record: string): GitCommit | undefined {
  const [sha = '', committedAt = '', authoredAt = '', body = ''] = record.split(FIELD)
  if (!sha.trim()) return undefined
  const reverts = [...body.matchAll(REVERTS)].map((match) => (match[1] ?? '').toLowerCase())
  return { sha: sha.trim(), committedAt, authoredAt, reverts: [...new Set(reverts)] }
}

/**
 * The commits `git log <previous>..<commit>` lists (only those touching `path` when given, as a
 * monorepo's application), newest first, at most 5,000 (`truncated` says so). A shallow checkout
 * is deepened first (`git fetch --unshallow`); when that fails, or the previous commit is not in
 * the history at all, `reason` says what to change in one line.
 */
export async function collectCommits(
  git: Git,
  range: { previous: string; commit: string; path?: string },
): Promise<CollectedCommits> {
  const inside = await git(['rev-parse', '--is-inside-work-tree'])
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') {
    return {
      ok: false,
      notCheckout: true,
      reason:
        'Not run inside a git checkout, so no commits were sent (run it in the checkout, or pass --no-commits).',
    }
  }
  const has = async (sha: string) => (await git(['cat-file', '-e', `${sha}^{commit}`])).code === 0
  if (!(await has(range.previous)) || !(await has(range.commit))) {
    const shallow = async () =>
      (await git(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true'
    // A fetch with no remote to fetch from succeeds and deepens nothing: asked again after.
    if (await shallow()) await git(['fetch', '--quiet', '--unshallow'])
    if (await shallow()) return { ok: false, reason: SHALLOW_HINT }
    if (!(await has(range.previous))) {
      return {
        ok: false,
        reason: `the previous deployment's commit ${range.previous.slice(0, 12)} is not in this checkout's history (rewritten, or another repository), so no commits were sent`,
      }
    }
    if (!(await has(range.commit))) {
      return { ok: false, reason: `commit ${range.commit.slice(0, 12)} is not in this checkout` }
    }
  }
  const log = await git([
    'log',
    `--max-count=${MAX_DEPLOYMENT_COMMITS + 1}`,
    `--format=%H${FIELD}%cI${FIELD}%aI${FIELD}%B${RECORD}`,
    `${range.previous}..${range.commit}`,
    ...(range.path ? ['--', range.path] : []),
  ])
  if (log.code !== 0) return { ok: false, reason: `git log failed: ${log.stderr.trim()}` }
  const commits = log.stdout
    .split(RECORD)
    .map((record) => parseRecord(record.replace(/^\n/, '')))
    .filter((commit): commit is GitCommit => commit !== undefined)
  return {
    ok: true,
    commits: commits.slice(0, MAX_DEPLOYMENT_COMMITS),
    truncated: commits.length > MAX_DEPLOYMENT_COMMITS,
  }
}
