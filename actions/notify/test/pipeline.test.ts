import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createShiplogClient } from '../../../packages/client/src/index.ts'
import { releaseHistory, revList } from '../../../packages/client/test/git-repo.ts'
import { type LiveApi, startLiveApi } from '../../../packages/client/test/live-api.ts'
import { type ToolPath, toolPath } from '../../../packages/client/test/node-only-path.ts'
import { prefixProxy } from '../../../packages/client/test/prefix-proxy.ts'
import { type Job, runAction, runnerEnv } from './runner.ts'

// The committed bundle run as a GitHub runner runs it, in a real checkout of a project with two
// releases, behind a proxy serving Shiplog under /shiplog/: what a release engineer meets in the
// first week (re-runs, a checkout git refuses, an image without git).

let live: LiveApi
let proxy: ReturnType<typeof prefixProxy>
let dir: string
let project: Awaited<ReturnType<typeof releaseHistory>>
let withGit: ToolPath
let withoutGit: ToolPath

beforeAll(async () => {
  live = await startLiveApi()
  proxy = prefixProxy(live.url)
  dir = await mkdtemp(join(tmpdir(), 'shiplog-action-pipeline-'))
  project = await releaseHistory(dir)
  withGit = await toolPath(['node', 'sh', 'git'])
  withoutGit = await toolPath(['node', 'sh'])
}, 60_000)

afterAll(async () => {
  proxy?.stop()
  await live?.close()
  await withGit?.remove()
  await withoutGit?.remove()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** The step of the README's workflow: record the deployment and wait for the worker. */
const step = (key: string, app: string, version: string, more: Record<string, string> = {}) => ({
  url: proxy.url,
  'api-key': key,
  app,
  environment: 'production',
  version,
  wait: 'true',
  ...more,
})

const job = (sha: string, runId: string, attempt = 1): Job => ({
  workspace: project.repo,
  sha,
  repository: 'acme/project',
  runId,
  attempt,
  job: 'deploy',
})

const recorded = (key: string, app: string) =>
  createShiplogClient({ baseUrl: live.url, apiKey: key }).listDeployments({ app })

describe('the committed action in a GitHub runner', () => {
  test('attempt 1 and attempt 2 of one run record one deployment; its receipt URL answers', async () => {
    const key = await live.createKey()
    const options = { cwd: project.repo, path: withGit.path }
    const first = await runAction(
      step(key, 'shop', 'v1'),
      runnerEnv(job(project.v1, '9000001', 1)),
      options,
    )
    expect({ code: first.code, stderr: first.stderr, commands: first.commands }).toEqual({
      code: 0,
      stderr: '',
      commands: {},
    })
    // "Re-run all jobs" by someone else: the same run id, the next attempt.
    const rerun = { ...job(project.v1, '9000001', 2), triggeringActor: 'hubot' }
    const again = await runAction(step(key, 'shop', 'v1'), runnerEnv(rerun), options)
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' })
    expect(again.outputs).toEqual(first.outputs)
    expect((await recorded(key, 'shop')).data).toHaveLength(1)

    const receipt = first.outputs['receipt-url'] ?? ''
    expect(receipt).toStartWith(`${proxy.url}/v1/deployments/`)
    const answer = await fetch(receipt, { headers: { authorization: `Bearer ${key}` } })
    expect(answer.status).toBe(200)
  }, 60_000)

  test.skipIf(process.getuid?.() !== 0)(
    'a checkout owned by another uid still sends its commits',
    async () => {
      const key = await live.createKey()
      const options = { cwd: project.repo, path: withGit.path }
      const first = await runAction(
        step(key, 'owned', 'v1'),
        runnerEnv(job(project.v1, '9000010')),
        options,
      )
      expect(first.code).toBe(0)
      const delivered = await revList(project.repo, 'v1', 'v2')
      // A container job runs as root in a workspace the runner's user owns: git refuses it.
      await chownTree(project.repo, 65534)
      try {
        const refused = Bun.spawnSync(['git', 'status'], { cwd: project.repo, stderr: 'pipe' })
        expect(refused.stderr.toString()).toContain('dubious ownership')
        const second = await runAction(
          step(key, 'owned', 'v2'),
          runnerEnv({ ...job(project.v2, '9000011'), ref: 'refs/tags/v2' }),
          options,
        )
        expect({ code: second.code, stderr: second.stderr, commands: second.commands }).toEqual({
          code: 0,
          stderr: '',
          commands: {},
        })
        const id = second.outputs['deployment-id'] ?? ''
        const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
        const sent = (await client.getDeploymentCommits(id)).commits.map((commit) => commit.sha)
        expect(sent.toSorted()).toEqual(delivered.toSorted())
        expect(sent).toHaveLength(4)
      } finally {
        await chownTree(project.repo, 0)
      }
    },
    60_000,
  )

  test('with no git on PATH the deployment is recorded and a warning names the cause', async () => {
    const key = await live.createKey()
    const run = await runAction(step(key, 'no-git', 'v1'), runnerEnv(job(project.v1, '9000020')), {
      cwd: project.repo,
      path: withoutGit.path,
    })
    expect(run.code).toBe(0)
    expect(run.commands).toEqual({
      warning: [
        'git is not installed here, so no commits were sent: run this step in an image with git, or pass --no-commits',
      ],
    })
    expect(run.stdout).toContain('Recorded at ')
    expect((await recorded(key, 'no-git')).data.map((record) => record.id)).toEqual([
      run.outputs['deployment-id'] as string,
    ])
  }, 60_000)

  test('require-commits fails the step, after the deployment is recorded', async () => {
    const key = await live.createKey()
    const run = await runAction(
      step(key, 'strict', 'v1', { 'require-commits': 'true' }),
      runnerEnv(job(project.v1, '9000030')),
      { cwd: project.repo, path: withoutGit.path },
    )
    expect(run.code).toBe(3)
    expect(run.commands.warning?.[0]).toStartWith('git is not installed here')
    const id = run.outputs['deployment-id'] as string
    expect(run.commands.error).toEqual([
      `error: deployment ${id} is recorded without its commits (--require-commits): fix the warning above`,
    ])
    expect((await recorded(key, 'strict')).data.map((record) => record.id)).toEqual([id])
  }, 60_000)
})

/** `chown -R` to `uid`, as the runner's user and a container's root own a workspace. */
async function chownTree(path: string, uid: number): Promise<void> {
  const changed = Bun.spawnSync(['chown', '-R', String(uid), path], { stderr: 'pipe' })
  if (changed.exitCode !== 0) throw new Error(`chown: ${changed.stderr.toString()}`)
}
