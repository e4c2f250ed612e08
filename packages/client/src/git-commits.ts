import { commitTextLine, FIRST_DEPLOYMENT_HISTORY, MAX_DEPLOYMENT_COMMITS } from '@shiplog/schema'
import { type RevertClaim, revertClaim } from '@shiplog/schema/revert-forms'
import { type Checkout, checkoutState, gitProblem } from './git-checkout.ts'
import { type ClaimingCommit, resolveReverts } from './revert-targets.ts'

/** One commit as PUT /v1/deployments/{id}/commits takes it. */
export interface GitCommit {
  sha: string
  committedAt: string
  authoredAt: string
  reverts: string[]
  /** The first line of its message, at most 200 characters. */
  subject?: string
  /** Its author's name, at most 200 characters. */
  author?: string
}

/** What the checkout says a deployment delivered, or why it cannot say (one line). */
export type CollectedCommits =
  | { ok: true; commits: GitCommit[]; truncated: boolean; unresolvedReverts: string[] }
  | { ok: false; reason: string }

export { FIRST_DEPLOYMENT_HISTORY }

const FIELD = '\u001f'
const RECORD = '\u001e'
const SHALLOW_HINT =
  'this checkout is shallow and its history could not be fetched: check out the full history ' +
  '(GitHub actions/checkout: fetch-depth: 0; GitLab: GIT_DEPTH: 0)'

/** One `git log` record: sha, committer and author time, subject, author, what it claims to revert. */
function parseRecord(
  record: string,
): { commit: GitCommit; claim: RevertClaim | undefined } | undefined {
  const [sha = '', committedAt = '', authoredAt = '', subject = '', author = '', message = ''] =
    record.split(FIELD)
  if (!sha.trim()) return undefined
  const details = { subject: commitTextLine(subject), author: commitTextLine(author) }
  const commit = {
    sha: sha.trim(),
    committedAt,
    authoredAt,
    reverts: [],
    ...Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined)),
  }
  return { commit, claim: revertClaim(subject, message) }
}

/**
 * The commits `git log <previous>..<commit>` lists (only those touching `path` when given, as a
 * monorepo's application), newest first, at most 5,000 (`truncated` says so); without `previous`,
 * the newest FIRST_DEPLOYMENT_HISTORY of `git log <commit>`. Each commit's `reverts` are what its
 * message reverts, resolved in the checkout's history; `unresolvedReverts` notes the claims that
 * could not be (see revert-targets.ts). A shallow checkout is deepened first (`git fetch
 * --unshallow`); when git cannot read the checkout, the fetch fails, or the previous commit is not
 * in the history at all, `reason` says what to change in one line.
 */
export async function collectCommits(
  git: Checkout,
  range: { previous?: string; commit: string; path?: string },
): Promise<CollectedCommits> {
  const state = await checkoutState(git.read)
  if (!state.ok) return state
  const missing = await missingFromHistory(git, range)
  if (missing !== undefined) return { ok: false, reason: missing }
  const limit = range.previous === undefined ? FIRST_DEPLOYMENT_HISTORY : MAX_DEPLOYMENT_COMMITS
  const log = await git.read([
    'log',
    `--max-count=${limit + 1}`,
    `--format=%H${FIELD}%cI${FIELD}%aI${FIELD}%s${FIELD}%an${FIELD}%B${RECORD}`,
    range.previous === undefined ? range.commit : `${range.previous}..${range.commit}`,
    ...(range.path ? ['--', range.path] : []),
  ])
  if (log.code !== 0) return { ok: false, reason: gitProblem(log) }
  const parsed = log.stdout
    .split(RECORD)
    .map((record) => parseRecord(record.replace(/^\n/, '')))
    .filter((each) => each !== undefined)
    .slice(0, limit)
  const claiming: ClaimingCommit[] = parsed.flatMap(({ commit, claim }) =>
    claim === undefined ? [] : [{ sha: commit.sha, subject: commit.subject ?? '', claim }],
  )
  const resolved = await resolveReverts(git.read, range.commit, claiming)
  return {
    ok: true,
    commits: parsed.map(({ commit }) => ({
      ...commit,
      reverts: resolved.reverts.get(commit.sha) ?? [],
    })),
    truncated: log.stdout.split(RECORD).filter((record) => record.trim()).length > limit,
    unresolvedReverts: resolved.unresolved,
  }
}

/**
 * Why the range's ends are not both in the history (after deepening a shallow checkout), or
 * undefined when they are. Without `previous`, a shallow checkout is deepened all the same, or
 * the history sent would stop at its depth; one that cannot be sends what it has.
 */
async function missingFromHistory(
  git: Checkout,
  range: { previous?: string; commit: string },
): Promise<string | undefined> {
  const has = async (sha: string) =>
    (await git.read(['cat-file', '-e', `${sha}^{commit}`])).code === 0
  const shallow = async () =>
    (await git.read(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true'
  if (range.previous === undefined) {
    if (await shallow()) await git.write(['fetch', '--quiet', '--unshallow'])
    return (await has(range.commit))
      ? undefined
      : `commit ${range.commit.slice(0, 12)} is not in this checkout`
  }
  if ((await has(range.previous)) && (await has(range.commit))) return undefined
  // A fetch with no remote to fetch from succeeds and deepens nothing: asked again after.
  if (await shallow()) await git.write(['fetch', '--quiet', '--unshallow'])
  if (await shallow()) return SHALLOW_HINT
  if (!(await has(range.previous))) {
    return `the previous deployment's commit ${range.previous.slice(0, 12)} is not in this checkout's history (rewritten, or another repository), so no commits were sent`
  }
  if (!(await has(range.commit)))
    return `commit ${range.commit.slice(0, 12)} is not in this checkout`
  return undefined
}
