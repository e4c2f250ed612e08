// A real Git repository made in a test, and the pushes GitHub would send of its history: what
// the integrations' history tests (git-history, gitops-history) deliver and compare with
// `shiplog notify` run in the same checkout.

import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'

export const ZEROS = '0'.repeat(40)

/** The environment without any CI's variables, so `shiplog notify` reads only the checkout. */
export const quiet = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^(GITHUB_|GITLAB_|CI_|BUILDKITE|CIRCLE|SHIPLOG_|GIT_)/.test(name),
  ),
)

/** The repository GitHub's payloads name. */
export const REPOSITORY = {
  id: 1296269,
  name: 'shop',
  full_name: 'acme/shop',
  html_url: 'https://github.com/acme/shop',
  default_branch: 'main',
  master_branch: 'main',
  owner: { login: 'acme' },
}

/** git in the checkout at `repo`, committing as Ada at `at` when given. */
export function gitIn(repo: string) {
  async function git(args: string[], at?: string) {
    const env: Record<string, string> = {
      ...quiet,
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    }
    // GitHub's push lists one timestamp per commit: the history keeps author and committer equal.
    if (at) Object.assign(env, { GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at })
    const run = await runProcess(['git', ...args], { cwd: repo, env })
    if (run.code !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`)
    return run.stdout.trim()
  }

  async function commit(file: string, message: string, at: string) {
    await writeFile(join(repo, file), `${message}\n`)
    await git(['add', file])
    await git(['commit', '--quiet', '-m', message], at)
    return git(['rev-parse', 'HEAD'])
  }

  /** A push as GitHub sends it: its commits are `git rev-list before..after`, oldest first. */
  async function pushPayload(before: string, after: string, forced: boolean): Promise<string> {
    const range = before === ZEROS ? after : `${before}..${after}`
    const listed = (await git(['rev-list', '--reverse', '--topo-order', range])).split('\n')
    const commits = []
    for (const sha of listed.filter(Boolean)) {
      const [tree, timestamp] = (await git(['log', '-1', '--format=%T%n%cI', sha])).split('\n')
      const message = (await git(['log', '-1', '--format=%B', sha])).trimEnd()
      const person = { name: 'Ada', email: 'ada@example.com', username: 'ada' }
      commits.push({
        id: sha,
        tree_id: tree,
        distinct: true,
        message,
        timestamp,
        url: `https://github.com/acme/shop/commit/${sha}`,
        author: person,
        committer: person,
        added: [],
        removed: [],
        modified: [],
      })
    }
    return JSON.stringify({
      ref: 'refs/heads/main',
      before,
      after,
      repository: REPOSITORY,
      pusher: { name: 'ada', email: 'ada@example.com' },
      sender: { login: 'ada' },
      created: before === ZEROS,
      deleted: false,
      forced,
      base_ref: null,
      compare: `https://github.com/acme/shop/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
      commits,
      head_commit: commits.at(-1) ?? null,
    })
  }

  /** A new repository at `repo` on `main`, with GitHub's remote. */
  async function init(parent: string) {
    await runProcess(['git', 'init', '--quiet', '-b', 'main', repo], { cwd: parent, env: quiet })
    await git(['remote', 'add', 'origin', 'https://github.com/acme/shop.git'])
  }

  return { git, commit, pushPayload, init }
}
