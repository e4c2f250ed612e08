import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'

/** The parent's environment without CI, Shiplog or git variables, which must not leak into runs. */
export const inherited = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^(GITHUB_|GITLAB_|CI_|BUILDKITE|CIRCLE|SHIPLOG_|GIT_)/.test(name),
  ),
)

/** Runs git in `cwd`; its trimmed output, or an error with what it printed. */
export async function git(cwd: string, args: string[], env: Record<string, string> = {}) {
  const run = await runProcess(['git', ...args], { cwd, env: { ...inherited, ...env } })
  if (run.code !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`)
  return run.stdout.trim()
}

/** Commits a file at a fixed committer and author time, with `message`; resolves with its SHA. */
export async function commitAt(
  repo: string,
  file: string,
  times: { committed: string; authored: string },
  message: string,
) {
  await writeFile(join(repo, file), `${message}\n`)
  await git(repo, ['add', file])
  await git(repo, ['commit', '--quiet', '-m', message], {
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
    GIT_AUTHOR_DATE: times.authored,
    GIT_COMMITTER_DATE: times.committed,
  })
  return git(repo, ['rev-parse', 'HEAD'])
}

/**
 * `shiplog notify`'s arguments for a deployment of acme/shop's checkout to production, waiting
 * until it is recorded: how the tests that replay history from a checkout deploy.
 */
export const notifyCheckout = (version: string, commit: string, deployedAt: string) => [
  'notify',
  '--repository',
  'acme/shop',
  '--app',
  'checkout',
  '--environment',
  'production',
  '--version',
  version,
  '--commit',
  commit,
  '--deployed-at',
  deployedAt,
  '--wait',
]

/**
 * A project with two releases in `dir`/`name`: tag v1, then a feature branch merged without
 * fast-forward, a commit on main and the revert of one, tagged v2. Resolves with the checkout and
 * the two tags' commits.
 */
export async function releaseHistory(dir: string, name = 'project') {
  const repo = join(dir, name)
  await git(dir, ['init', '--quiet', '-b', 'main', repo])
  let day = 1
  const next = (file: string, message: string) => {
    const time = `2026-04-${String(day++).padStart(2, '0')}T09:00:00Z`
    return commitAt(repo, file, { committed: time, authored: time }, message)
  }
  await next('a.txt', 'first')
  const v1 = await next('b.txt', 'second')
  await git(repo, ['tag', 'v1'])
  await git(repo, ['checkout', '--quiet', '-b', 'feature'])
  await next('c.txt', 'feature work')
  await git(repo, ['checkout', '--quiet', 'main'])
  const fix = await next('d.txt', 'a fix')
  const merged = `2026-04-${String(day++).padStart(2, '0')}T09:00:00Z`
  await git(repo, ['merge', '--quiet', '--no-ff', '-m', 'Merge branch feature', 'feature'], {
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
    GIT_AUTHOR_DATE: merged,
    GIT_COMMITTER_DATE: merged,
  })
  const v2 = await next('e.txt', `Revert "a fix"\n\nThis reverts commit ${fix}.`)
  await git(repo, ['tag', 'v2'])
  return { repo, v1, v2 }
}

/** What `git rev-list <from>..<to>` lists: the commits a deployment of `to` after `from` delivers. */
export async function revList(repo: string, from: string, to: string): Promise<string[]> {
  return (await git(repo, ['rev-list', `${from}..${to}`])).split('\n').filter(Boolean)
}
