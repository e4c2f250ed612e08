import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { createShiplogClient } from '../src/index.ts'
import { commitAt as commitWithTimes, git, inherited, notifyCheckout } from './git-repo.ts'
import { type LiveApi, ROOT, startLiveApi } from './live-api.ts'

const commitAt = (
  repo: string,
  file: string,
  committed: string,
  authored: string,
  message: string,
) => commitWithTimes(repo, file, { committed, authored }, message)

// shiplog notify, run in a real git checkout, sends the commits since the previous deployment of
// the app in the environment: git log previous..commit, with committer and author times and the
// commits a revert names; a shallow clone is deepened first.

let live: LiveApi
let key: string
let dir: string

beforeAll(async () => {
  live = await startLiveApi()
  key = await live.createKey({ workspace: 'git-commits' })
  dir = await mkdtemp(join(tmpdir(), 'shiplog-git-'))
}, 60_000)

afterAll(async () => {
  await live?.close()
  await rm(dir, { recursive: true, force: true })
})

const notify = (
  cwd: string,
  commit: string,
  version: string,
  deployedAt: string,
  more: string[] = [],
  env: Record<string, string> = {},
) =>
  runProcess(
    [
      'bun',
      join(ROOT, 'packages/client/src/cli.ts'),
      ...notifyCheckout(version, commit, deployedAt),
      '--url',
      live.url,
      ...more,
    ],
    { cwd, env: { ...inherited, NO_COLOR: '1', SHIPLOG_API_KEY: key, ...env } },
  )

test('the first deployment sends its history; the next sends git log previous..commit, reverts included', async () => {
  const repo = join(dir, 'origin')
  await git(dir, ['init', '--quiet', '-b', 'main', repo])
  const first = await commitAt(
    repo,
    'a.txt',
    '2026-05-01T09:00:00Z',
    '2026-05-01T08:00:00Z',
    'first',
  )
  const second = await commitAt(
    repo,
    'b.txt',
    '2026-05-02T09:00:00Z',
    '2026-05-01T20:00:00Z',
    'second',
  )
  const third = await commitAt(
    repo,
    'c.txt',
    '2026-05-03T09:00:00+02:00',
    '2026-05-03T06:00:00Z',
    `Revert "second"\n\nThis reverts commit ${second}.`,
  )
  // Where the repository lives on the web: the origin's https form, without its token.
  await git(repo, ['remote', 'add', 'origin', 'https://ci:t0ken@github.com/acme/shop.git'])
  const client = createShiplogClient({ baseUrl: live.url, apiKey: key })

  const initial = await notify(repo, first, 'v1', '2026-05-01T12:00:00Z')
  expect({ code: initial.code, stderr: initial.stderr }).toEqual({ code: 0, stderr: '' })
  expect(initial.stdout).toContain(
    'No earlier deployment of this app here: sent the one commit of its history, in case one arrives later.',
  )

  const next = await notify(repo, third, 'v2', '2026-05-03T12:00:00Z')
  expect({ code: next.code, stderr: next.stderr }).toEqual({ code: 0, stderr: '' })
  expect(next.stdout).toContain('Sent 2 commits since v1.')
  const id = /^Deployment (\S+) accepted/.exec(next.stdout)?.[1] as string
  expect(await client.getDeploymentCommits(id)).toEqual({
    deploymentId: id,
    truncated: false,
    webUrl: 'https://github.com/acme/shop',
    commits: [
      {
        sha: third,
        committedAt: '2026-05-03T07:00:00.000Z',
        authoredAt: '2026-05-03T06:00:00.000Z',
        reverts: [second],
        subject: 'Revert "second"',
        author: 'Ada',
      },
      {
        sha: second,
        committedAt: '2026-05-02T09:00:00.000Z',
        authoredAt: '2026-05-01T20:00:00.000Z',
        reverts: [],
        subject: 'second',
        author: 'Ada',
      },
    ],
  })

  // A backfill between the two finds its own neighbour: v1, so it sends only `second`.
  const backfill = await notify(repo, second, 'v1.5', '2026-05-02T12:00:00Z')
  expect(backfill.stdout).toContain('Sent 1 commit since v1.')
}, 30_000)

test('a shallow clone is deepened; one that cannot be is a one-line warning, and the deployment stands', async () => {
  const origin = join(dir, 'origin')
  const head = await git(origin, ['rev-parse', 'HEAD'])
  const shallow = join(dir, 'shallow')
  await git(dir, ['clone', '--quiet', '--depth', '1', `file://${origin}`, shallow])
  const deepened = await notify(shallow, head, 'v3', '2026-05-04T12:00:00Z')
  expect({ code: deepened.code, stderr: deepened.stderr }).toEqual({ code: 0, stderr: '' })
  expect(deepened.stdout).toMatch(/\b\d+ commits? since v2\./)

  // A newer commit, cloned alone without a remote to deepen from: v3's commit is out of reach.
  const newer = await commitAt(
    origin,
    'd.txt',
    '2026-05-05T09:00:00Z',
    '2026-05-05T09:00:00Z',
    'fourth',
  )
  const stranded = join(dir, 'stranded')
  await git(dir, ['clone', '--quiet', '--depth', '1', `file://${origin}`, stranded])
  await git(stranded, ['remote', 'remove', 'origin'])
  const warned = await notify(stranded, newer, 'v4', '2026-05-05T12:00:00Z')
  expect(warned.code).toBe(0)
  expect(warned.stderr.trim().split('\n')).toEqual([
    'warning: this checkout is shallow and its history could not be fetched: check out the full history (GitHub actions/checkout: fetch-depth: 0; GitLab: GIT_DEPTH: 0)',
  ])
  expect(warned.stdout).toContain('Recorded at ')

  // Outside a checkout the deployment is recorded all the same, and a warning says why.
  const outside = await notify(dir, newer, 'v5', '2026-05-06T12:00:00Z')
  expect(outside.code).toBe(0)
  expect(outside.stderr).toBe(
    "warning: this directory is not in a git checkout, so no commits were sent: run it in the pipeline's checkout, or pass --no-commits\n",
  )
  expect(outside.stdout).toContain('Recorded at ')
  // In a GitHub Actions step the same warning is an annotation on the run.
  const annotated = await notify(dir, newer, 'v5.1', '2026-05-06T13:00:00Z', [], {
    GITHUB_ACTIONS: 'true',
  })
  expect(annotated.stderr).toStartWith('::warning::this directory is not in a git checkout')
  const skipped = await notify(dir, newer, 'v6', '2026-05-07T12:00:00Z', ['--no-commits'])
  expect({ code: skipped.code, stderr: skipped.stderr }).toEqual({ code: 0, stderr: '' })
}, 30_000)

test('reverts that name no single commit are sent as reverting nothing, with one warning line', async () => {
  const repo = join(dir, 'unclear')
  await git(dir, ['init', '--quiet', '-b', 'main', repo])
  const at = (hour: number) => `2026-05-10T${String(hour).padStart(2, '0')}:00:00Z`
  await commitAt(repo, 'a.txt', at(8), at(8), 'Bump version')
  await commitAt(repo, 'b.txt', at(9), at(9), 'Bump version')
  await commitAt(repo, 'a.txt', at(10), at(10), 'Revert "Bump version"')
  await commitAt(repo, 'c.txt', at(11), at(11), 'Revert "Made on another branch"')
  const last = await commitAt(repo, 'a.txt', at(12), at(12), 'Revert "Bump version" (#9)')
  const own = await live.createKey({ workspace: 'git-commits-unclear' })
  const run = await notify(repo, last, 'v1', '2026-05-10T13:00:00Z', [], { SHIPLOG_API_KEY: own })
  expect(run.code).toBe(0)
  const lines = run.stderr.trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toStartWith(
    'warning: 3 reverts are not counted, since what each reverts is not one commit of this history: ',
  )
  expect(lines[0]).toContain(`${last.slice(0, 12)} (Revert "Bump version" (#9)): 2 commits`)
  const id = /^Deployment (\S+) accepted/.exec(run.stdout)?.[1] as string
  const stored = await createShiplogClient({ baseUrl: live.url, apiKey: own }).getDeploymentCommits(
    id,
  )
  expect(stored.commits.map((commit) => [commit.subject, commit.reverts])).toEqual([
    ['Revert "Bump version" (#9)', []],
    ['Revert "Made on another branch"', []],
    ['Revert "Bump version"', []],
    ['Bump version', []],
    ['Bump version', []],
  ])
}, 30_000)

test('a re-run whose range became empty keeps the list stored, and says so', async () => {
  const repo = join(dir, 'rerun')
  await git(dir, ['init', '--quiet', '-b', 'main', repo])
  await commitAt(repo, 'a.txt', '2026-05-20T08:00:00Z', '2026-05-20T08:00:00Z', 'one')
  const two = await commitAt(repo, 'b.txt', '2026-05-20T09:00:00Z', '2026-05-20T09:00:00Z', 'two')
  const own = { SHIPLOG_API_KEY: await live.createKey({ workspace: 'git-commits-rerun' }) }
  const rerun = ['--idempotency-key', 'deploy-job-7']
  const first = await notify(repo, two, 'v2', '2026-05-20T12:00:00Z', rerun, own)
  expect(first.stdout).toContain('sent the 2 commits of its history')
  // A backfill of the same commit, earlier: the first run's range is now empty.
  const backfill = await notify(repo, two, 'v1', '2026-05-20T10:00:00Z', [], own)
  expect({ code: backfill.code, stderr: backfill.stderr }).toEqual({ code: 0, stderr: '' })
  const again = await notify(repo, two, 'v2', '2026-05-20T12:00:00Z', rerun, own)
  expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' })
  expect(again.stdout).toContain(
    'No new commits to send: the 2 stored for this deployment are kept.',
  )
  const id = /^Deployment (\S+) accepted/.exec(again.stdout)?.[1] as string
  expect(id).toBe(/^Deployment (\S+) accepted/.exec(first.stdout)?.[1] as string)
  const client = createShiplogClient({ baseUrl: live.url, apiKey: own.SHIPLOG_API_KEY })
  expect((await client.getDeploymentCommits(id)).commits).toHaveLength(2)
}, 30_000)
