import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import type { Checkout } from '../src/git-checkout.ts'
import { collectCommits, FIRST_DEPLOYMENT_HISTORY } from '../src/git-commits.ts'
import { runProgram } from '../src/runtime.ts'
import { commitAt, git, inherited } from './git-repo.ts'

// What `collectCommits` says each commit reverts, for every form decisions §8 lists, read from a
// real repository: git's and GitLab's line (in full or abbreviated), GitHub's button on a
// squash-merged and on a merge-committed pull request, a revert of a revert, and the claims that
// name no single commit (counted as reverting nothing, each noted once).

let dir: string
let repo: string
let checkout: Checkout
let minute = 0

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shiplog-reverts-'))
  repo = join(dir, 'repo')
  await git(dir, ['init', '--quiet', '-b', 'main', repo])
  const run = (args: string[]) => runProgram('git', ['-C', repo, ...args])
  checkout = { read: run, write: run }
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const next = (file: string, message: string) => {
  const at = new Date(Date.UTC(2026, 4, 1, 9, minute++)).toISOString()
  return commitAt(repo, file, { committed: at, authored: at }, message)
}

/** A pull request merged as GitHub's merge button does: no fast-forward, its title in the body. */
async function mergePullRequest(number: number, branch: string, title: string, files: string[]) {
  await git(repo, ['checkout', '--quiet', '-b', branch])
  const commits = []
  for (const file of files) commits.push(await next(file, `${title}: ${file}`))
  await git(repo, ['checkout', '--quiet', 'main'])
  const at = new Date(Date.UTC(2026, 4, 1, 9, minute++)).toISOString()
  const message = `Merge pull request #${number} from acme/${branch}\n\n${title}`
  await git(repo, ['merge', '--quiet', '--no-ff', '-m', message, branch], {
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
    GIT_AUTHOR_DATE: at,
    GIT_COMMITTER_DATE: at,
  })
  return { merge: await git(repo, ['rev-parse', 'HEAD']), commits: commits.reverse() }
}

async function revertsOf(previous: string | undefined, commit: string) {
  const collected = await collectCommits(checkout, { previous, commit })
  if (!collected.ok) throw new Error(collected.reason)
  return {
    reverts: Object.fromEntries(
      collected.commits.filter((c) => c.reverts.length > 0).map((c) => [c.subject, c.reverts]),
    ),
    unresolved: collected.unresolvedReverts,
  }
}

test('every revert form resolves to the commits it reverts, and what names none is noted', async () => {
  const base = await next('a', 'Initial shop')
  const coupons = await next('b', 'Add coupons (#2)')
  const search = await next('c', 'Faster search')
  const cart = await mergePullRequest(3, 'cart', 'Add cart', ['d', 'e'])
  const tidy = await next('f', 'Tidy up')
  const start = await next('g', 'Start of the reverts')

  // GitHub's button on squash-merged #2, its revert pull request squash-merged as #4.
  await next('b', 'Revert "Add coupons" (#4)\n\nReverts acme/shop#2')
  // GitHub's button on #3, merged with a merge commit: no body, its title only.
  await next('d', 'Revert "Add cart"')
  // git revert, abbreviated by hand.
  const reverted = await next(
    'c',
    `Revert "Faster search"\n\nThis reverts commit ${search.slice(0, 10)}.`,
  )
  // A re-apply: GitHub's button on the revert just made.
  await next('c', 'Revert "Revert "Faster search""')
  // GitLab's button: the full SHA, as git writes it.
  await next('f', `Revert "Tidy up"\n\nThis reverts commit ${tidy}.`)
  // Two commits have this subject: not counted.
  await next('h', 'Bump version')
  await next('j', 'Bump version')
  await next('h', 'Revert "Bump version"')
  // Nothing in this history has it.
  const last = await next('i', 'Revert "Something from another fork"')

  const { reverts, unresolved } = await revertsOf(start, last)
  expect(reverts).toEqual({
    'Revert "Add coupons" (#4)': [coupons],
    'Revert "Add cart"': [cart.merge, ...cart.commits],
    'Revert "Faster search"': [search],
    'Revert "Revert "Faster search""': [reverted],
    'Revert "Tidy up"': [tidy],
  })
  const short = async (subject: string) =>
    (await git(repo, ['log', '--format=%H', `--grep=^${subject}$`, '-1'])).slice(0, 12)
  expect(unresolved).toEqual([
    `${await short('Revert "Something from another fork"')} (Revert "Something from another fork"): nothing it reverts in the newest 10,000 commits`,
    `${await short('Revert "Bump version"')} (Revert "Bump version"): 2 commits or pull requests it may revert`,
  ])
  expect(base).toHaveLength(40)
})

test('with no earlier deployment, the history up to the commit is sent, capped and marked', async () => {
  const head = await git(repo, ['rev-parse', 'HEAD'])
  const all = Number(await git(repo, ['rev-list', '--count', head]))
  const whole = await collectCommits(checkout, { commit: head })
  if (!whole.ok) throw new Error(whole.reason)
  expect({ count: whole.commits.length, truncated: whole.truncated }).toEqual({
    count: all,
    truncated: false,
  })
  expect(whole.commits[0]?.sha).toBe(head)

  // One commit more than the cap, written at once by git fast-import.
  const long = join(dir, 'long')
  await git(dir, ['init', '--quiet', '-b', 'main', long])
  const stream = Array.from({ length: FIRST_DEPLOYMENT_HISTORY + 1 }, (_, index) => {
    const message = `commit ${index}`
    return `commit refs/heads/main\ncommitter Ada <ada@example.com> ${1_780_000_000 + index * 60} +0000\ndata ${message.length}\n${message}\n`
  }).join('')
  const path = join(dir, 'history.fi')
  await Bun.write(path, stream)
  const imported = await runProcess(['sh', '-c', `git fast-import --quiet < '${path}'`], {
    cwd: long,
    env: inherited,
  })
  expect(imported.code).toBe(0)
  const tip = await git(long, ['rev-parse', 'main'])
  const run = (args: string[]) => runProgram('git', ['-C', long, ...args])
  const capped = await collectCommits({ read: run, write: run }, { commit: tip })
  if (!capped.ok) throw new Error(capped.reason)
  expect({ count: capped.commits.length, truncated: capped.truncated }).toEqual({
    count: FIRST_DEPLOYMENT_HISTORY,
    truncated: true,
  })
  expect(capped.commits.at(-1)?.subject).toBe('commit 1')
})
