import { repositoryFromRemote, webUrlFromRemote } from './git-remote.ts'
import { type CommandResult, pathExists, runProgram, workingDirectory } from './runtime.ts'

/** Runs git with these arguments in the pipeline's checkout. */
export type Git = (args: string[]) => Promise<CommandResult>

/**
 * git in the checkout the command runs in: `read` for the commands that only read it, `write` for
 * those that change it (`fetch --unshallow`).
 */
export interface Checkout {
  read: Git
  write: Git
}

/** Whether git can read the checkout, or why not in one line (git's own reason when it has one). */
export type CheckoutState = { ok: true } | { ok: false; reason: string }

/** The directory holding `.git` at or above `dir`, as git itself discovers a repository. */
async function checkoutRoot(dir: string): Promise<string | undefined> {
  for (let current = dir; ; ) {
    if (await pathExists(`${current.replace(/[\\/]$/, '')}/.git`)) return current
    // The parent, on POSIX and Windows paths alike; the root is its own parent.
    const parent = current.replace(/[\\/][^\\/]*[\\/]?$/, '') || '/'
    if (parent === current || parent === '') return undefined
    current = parent
  }
}

/**
 * git as `shiplog notify` runs it. A checkout owned by another user (a container job running as
 * root, a runner with another uid) makes git refuse it ("detected dubious ownership"); like
 * actions/checkout, the reads trust the one checkout the command runs in (`safe.directory` for
 * that call only, never the user's config), while a write still refuses it: objects fetched as
 * another user would be left behind that its owner cannot remove. `LC_ALL=C` keeps git's messages
 * in the English this module recognises.
 */
export async function localCheckout(run = runProgram): Promise<Checkout> {
  const root = await checkoutRoot(workingDirectory())
  const trust = root === undefined ? [] : ['-c', `safe.directory=${root}`]
  const english = { LC_ALL: 'C' }
  return {
    read: (args) => run('git', [...trust, ...args], english),
    write: (args) => run('git', args, english),
  }
}

const NO_COMMITS = 'so no commits were sent'

/** Why git failed, as a line that says what to change. */
export function gitProblem(result: CommandResult): string {
  if (result.notFound) {
    return `git is not installed here, ${NO_COMMITS}: run this step in an image with git, or pass --no-commits`
  }
  const said = result.stderr.trim()
  if (/dubious ownership|unsafe repository|is owned by someone else/.test(said)) {
    return (
      `git refused this checkout because another user owns it (git: detected dubious ownership), ${NO_COMMITS}: ` +
      "run this step as the checkout's owner, or mark it safe: git config --global --add safe.directory <checkout>"
    )
  }
  if (/not a git repository/.test(said)) {
    return `this directory is not in a git checkout, ${NO_COMMITS}: run it in the pipeline's checkout, or pass --no-commits`
  }
  const first = said.split('\n')[0] || `exit code ${result.code}`
  return `git could not read this checkout (${first.replace(/^fatal: /, '')}), ${NO_COMMITS}`
}

/** Whether git is installed and can read the checkout the command runs in. */
export async function checkoutState(git: Git): Promise<CheckoutState> {
  const inside = await git(['rev-parse', '--is-inside-work-tree'])
  if (inside.code === 0 && inside.stdout.trim() === 'true') return { ok: true }
  if (inside.code === 0) {
    return { ok: false, reason: gitProblem({ ...inside, stderr: 'not a git repository' }) }
  }
  return { ok: false, reason: gitProblem(inside) }
}

/** What a checkout says about the build when no CI does: HEAD, `origin`, the git user. */
export interface CheckoutContext {
  commitHash?: string
  repositoryFullName?: string
  author?: string
}

/**
 * The commit at HEAD, the repository of the `origin` remote and the configured `user.name`, each
 * left out when git cannot tell (no git, no checkout, no such remote).
 */
export async function checkoutContext(git: Git): Promise<CheckoutContext> {
  const answer = async (args: string[]) => {
    const result = await git(args)
    const value = result.code === 0 ? result.stdout.trim() : ''
    return value === '' ? undefined : value
  }
  const head = await answer(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])
  const origin = await answer(['remote', 'get-url', 'origin'])
  const author = await answer(['config', 'user.name'])
  const repositoryFullName = origin === undefined ? undefined : repositoryFromRemote(origin)
  return Object.fromEntries(
    Object.entries({ commitHash: head, repositoryFullName, author }).filter(
      ([, value]) => value !== undefined,
    ),
  ) as CheckoutContext
}

/** The web address of the checkout's `origin` remote, for links to commits; undefined if none. */
export async function originWebUrl(git: Git): Promise<string | undefined> {
  const origin = await git(['remote', 'get-url', 'origin'])
  return origin.code === 0 ? webUrlFromRemote(origin.stdout.trim()) : undefined
}
