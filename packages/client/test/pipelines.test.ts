import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { createShiplogClient } from '../src/index.ts'
import { releaseHistory, revList } from './git-repo.ts'
import { type LiveApi, ROOT, startLiveApi } from './live-api.ts'
import { type ToolPath, toolPath } from './node-only-path.ts'
import { prefixProxy } from './prefix-proxy.ts'

// The GitLab CI template and the Buildkite, CircleCI and Jenkins snippets of docs/pipelines.md,
// parsed, then their script lines run by `sh` as the CI would, with that CI's variables, in a real
// checkout, against a real Shiplog served under /shiplog/ by a proxy. The CLI comes from that
// Shiplog: only sh, curl, node, git (and sha256sum, for a pinned hash) are on PATH, and npm's
// registry points at a port nobody listens on.

let live: LiveApi
let proxy: ReturnType<typeof prefixProxy>
let dir: string
let project: Awaited<ReturnType<typeof releaseHistory>>
let tools: ToolPath

beforeAll(async () => {
  live = await startLiveApi()
  proxy = prefixProxy(live.url)
  dir = await mkdtemp(join(tmpdir(), 'shiplog-pipelines-'))
  project = await releaseHistory(dir)
  tools = await toolPath(['sh', 'curl', 'node', 'git', 'sha256sum'])
}, 60_000)

afterAll(async () => {
  proxy?.stop()
  await live?.close()
  await tools?.remove()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** Runs a job's script as its CI would (stopping at the first failing command) in the checkout. */
async function runScript(script: string, key: string, env: Record<string, string>) {
  return runProcess(['sh', '-e', '-c', script], {
    cwd: project.repo,
    env: {
      PATH: tools.path,
      HOME: dir,
      TMPDIR: dir,
      npm_config_registry: 'http://127.0.0.1:9/',
      // As users paste it, with a trailing slash.
      SHIPLOG_URL: `${proxy.url}/`,
      SHIPLOG_API_KEY: key,
      ...env,
    },
  })
}

/** Deploys v1 then v2 with `deploy(tag, sha)`; the second must send what v1..v2 delivered. */
async function deployTwice(
  key: string,
  deploy: (tag: string, sha: string) => ReturnType<typeof runScript>,
) {
  const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
  const ids: string[] = []
  for (const [tag, sha] of [
    ['v1', project.v1],
    ['v2', project.v2],
  ] as const) {
    const run = await deploy(tag, sha)
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
    expect(run.stdout).toContain('Recorded at ')
    ids.push(/^Deployment (\S+) accepted: /m.exec(run.stdout)?.[1] ?? '')
  }
  const sent = (await client.getDeploymentCommits(ids[1] ?? '')).commits.map((c) => c.sha)
  expect(sent.toSorted()).toEqual((await revList(project.repo, 'v1', 'v2')).toSorted())
  return { client, ids, recorded: await client.getDeployment(ids[1] ?? '') }
}

/** The blocks of docs/pipelines.md in a language, as text. */
async function docBlocks(language: string): Promise<string[]> {
  const doc = await readFile(join(ROOT, 'docs/pipelines.md'), 'utf8')
  const fence = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g')
  return [...doc.matchAll(fence)].map((match) => match[1] ?? '')
}

/** The ```yaml blocks of docs/pipelines.md that are mappings, parsed. */
async function docYaml(): Promise<Record<string, unknown>[]> {
  return (await docBlocks('yaml')).flatMap((block) => {
    const parsed = Bun.YAML.parse(block)
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? [parsed as Record<string, unknown>]
      : []
  })
}

interface GitlabJob {
  extends?: string
  image?: string
  variables?: Record<string, string>
  script?: string[]
}

test('GitLab CI: the template fetches the CLI from Shiplog, sends v1..v2, and a retried job records once', async () => {
  const template = Bun.YAML.parse(
    await readFile(join(ROOT, 'ci-templates/gitlab/shiplog.yml'), 'utf8'),
  ) as Record<string, GitlabJob>
  const hidden = template['.shiplog-notify']
  // An image with git: the -slim and -alpine variants have none.
  expect(hidden?.image).toBe('node:lts')
  const usage = (await docYaml()).find((block) => 'include' in block)
  const job = Object.values(usage ?? {}).find(
    (value): value is GitlabJob => (value as GitlabJob)?.extends === '.shiplog-notify',
  )
  expect(job).toBeDefined()
  const script = (job?.script ?? hidden?.script ?? []).join('\n')
  expect(script).toContain('/cli/shiplog.mjs')

  const key = await live.createKey()
  const predefined = (tag: string, sha: string, pipeline: string, jobId: string) => ({
    GITLAB_CI: 'true',
    CI: 'true',
    CI_SERVER_URL: 'https://gitlab.example.com',
    CI_PROJECT_DIR: project.repo,
    CI_PROJECT_PATH: 'acme/gitlab-shop',
    CI_PROJECT_NAME: 'gitlab-shop',
    CI_PROJECT_URL: 'https://gitlab.example.com/acme/gitlab-shop',
    CI_COMMIT_SHA: sha,
    CI_COMMIT_TAG: tag,
    CI_COMMIT_REF_NAME: tag,
    CI_PIPELINE_ID: pipeline,
    CI_JOB_ID: jobId,
    CI_JOB_NAME: 'record-deployment',
    CI_JOB_STAGE: 'deploy',
    GITLAB_USER_LOGIN: 'ada',
  })
  // GitLab expands $NAME and ${NAME} in variables before the script runs.
  const jobEnv = (vars: Record<string, string>) => ({
    ...vars,
    ...Object.fromEntries(
      Object.entries({ ...hidden?.variables, ...job?.variables }).map(([name, value]) => [
        name,
        String(value).replace(/\$\{?(\w+)\}?/g, (_, used: string) => vars[used] ?? ''),
      ]),
    ),
  })
  let pipeline = 700
  const { client, ids, recorded } = await deployTwice(key, (tag, sha) =>
    runScript(script, key, jobEnv(predefined(tag, sha, String(++pipeline), `${pipeline}01`))),
  )
  expect(recorded).toMatchObject({
    app: 'checkout',
    environment: 'production',
    version: 'v2',
    commitHash: project.v2,
    repositoryFullName: 'acme/gitlab-shop',
    author: 'ada',
  })

  // Retried by someone else: a new job id and user, the same pipeline and job name; the CLI's
  // hash pinned this time.
  const sha256 = (await (await fetch(`${proxy.url}/cli/shiplog.mjs.sha256`)).text()).split(' ')[0]
  const retry = {
    ...predefined('v2', project.v2, String(pipeline), `${pipeline}02`),
    GITLAB_USER_LOGIN: 'grace',
  }
  const retried = await runScript(script, key, {
    ...jobEnv(retry),
    SHIPLOG_CLI_SHA256: sha256 ?? '',
  })
  expect({ code: retried.code, stderr: retried.stderr }).toEqual({ code: 0, stderr: '' })
  expect(retried.stdout).toContain(`Deployment ${ids[1]} accepted: checkout v2 to production (`)
  const all = await client.listDeployments({ app: 'checkout' })
  expect(all.data.map((deployment) => deployment.id).toSorted()).toEqual(ids.toSorted())

  // A pin that does not match stops the job before anything is sent.
  const pinned = await runScript(script, key, {
    ...jobEnv(predefined('v3', project.v2, '800', '80001')),
    SHIPLOG_CLI_SHA256: '0'.repeat(64),
  })
  expect(pinned.code).not.toBe(0)
  expect(pinned.stdout).not.toContain('accepted')
  expect((await client.listDeployments({ app: 'checkout' })).data).toHaveLength(2)
}, 90_000)

test('Buildkite: the documented step records v1 then v2 with its commits', async () => {
  const pipeline = (await docYaml()).find((block) => Array.isArray(block.steps))
  const steps = (pipeline?.steps ?? []) as { commands?: string[] }[]
  expect(steps).toHaveLength(1)
  const commands = steps[0]?.commands ?? []
  const key = await live.createKey()
  const { recorded } = await deployTwice(key, (tag, sha) => {
    const agent = {
      BUILDKITE: 'true',
      BUILDKITE_COMMIT: sha,
      BUILDKITE_TAG: tag,
      BUILDKITE_REPO: 'git@github.com:acme/buildkite-shop.git',
      BUILDKITE_BUILD_CREATOR: 'Grace Hopper',
      BUILDKITE_BUILD_ID: `0190f3c4-0000-7000-8000-00000000000${tag.slice(1)}`,
      BUILDKITE_STEP_ID: '0190f3c4-0000-7000-8000-0000000000aa',
      BUILDKITE_JOB_ID: crypto.randomUUID(),
    }
    // At upload Buildkite interpolates $NAME from what it knows and turns $$ into $.
    const uploaded = commands.map((command) =>
      command.replace(/\$\$|\$\{?(\w+)\}?/g, (found, name?: string) =>
        found === '$$' ? '$' : ((agent as Record<string, string>)[name ?? ''] ?? ''),
      ),
    )
    return runScript(uploaded.join('\n'), key, agent)
  })
  expect(recorded).toMatchObject({
    version: 'v2',
    commitHash: project.v2,
    repositoryFullName: 'acme/buildkite-shop',
    author: 'Grace Hopper',
  })
}, 60_000)

interface CircleJob {
  docker?: { image: string }[]
  steps?: (string | { run?: string | { command: string } })[]
}

test('CircleCI: the documented job checks out, then records v1 then v2 with its commits', async () => {
  const config = (await docYaml()).find((block) => block.version === 2.1)
  const jobs = Object.values((config?.jobs ?? {}) as Record<string, CircleJob>)
  expect(jobs).toHaveLength(1)
  expect(jobs[0]?.docker?.[0]?.image).toStartWith('cimg/node:')
  expect(jobs[0]?.steps?.[0]).toBe('checkout')
  const commands = (jobs[0]?.steps ?? []).flatMap((step) => {
    if (typeof step === 'string' || !step.run) return []
    return [typeof step.run === 'string' ? step.run : step.run.command]
  })
  expect(commands).toHaveLength(1)
  const key = await live.createKey()
  const { recorded } = await deployTwice(key, (tag, sha) =>
    runScript(commands[0] ?? '', key, {
      CIRCLECI: 'true',
      CIRCLE_SHA1: sha,
      CIRCLE_TAG: tag,
      CIRCLE_PROJECT_USERNAME: 'acme',
      CIRCLE_PROJECT_REPONAME: 'circle-shop',
      CIRCLE_USERNAME: 'linus',
      CIRCLE_WORKFLOW_WORKSPACE_ID: crypto.randomUUID(),
      CIRCLE_JOB: 'record-deployment',
    }),
  )
  expect(recorded).toMatchObject({
    version: 'v2',
    commitHash: project.v2,
    repositoryFullName: 'acme/circle-shop',
    author: 'linus',
  })
}, 60_000)

test("Jenkins: the documented stage's sh step records v1 then v2 with its commits", async () => {
  const stages = await docBlocks('groovy')
  expect(stages).toHaveLength(1)
  const script = /sh '''\n([\s\S]*?)'''/.exec(stages[0] ?? '')?.[1] ?? ''
  expect(script).toContain('/cli/shiplog.mjs')
  const key = await live.createKey()
  let build = 40
  const { recorded } = await deployTwice(key, (tag, sha) => {
    build += 1
    return runScript(script, key, {
      JENKINS_URL: 'https://jenkins.example.com/',
      BUILD_NUMBER: String(build),
      BUILD_TAG: `jenkins-shop-release-${build}`,
      STAGE_NAME: 'Record the deployment',
      GIT_COMMIT: sha,
      GIT_URL: 'https://github.com/acme/jenkins-shop.git',
      TAG_NAME: tag,
      WORKSPACE: project.repo,
    })
  })
  // Jenkins names no one who deployed; git's user.name is not set in this checkout either.
  expect(recorded).toMatchObject({
    version: 'v2',
    commitHash: project.v2,
    repositoryFullName: 'acme/jenkins-shop',
    author: null,
  })
}, 60_000)
