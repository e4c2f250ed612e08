import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createShiplogClient } from '../../src/index.ts'
import { type LiveApi, ROOT, startLiveApi } from '../live-api.ts'
import { type Packed, packedProject, runInProject } from './scratch-project.ts'

// The GitLab CI template and the README's Buildkite and CircleCI steps, parsed, then their script
// lines run by `sh` as the CI would, with that CI's variables, against a real Shiplog. `npx` finds
// @shiplog/client in the project where the packed tarballs were installed (as it would download it
// from the registry in a real pipeline); only node, npm, npx and sh are on PATH.

let live: LiveApi
let project: Packed

beforeAll(async () => {
  ;[live, project] = await Promise.all([startLiveApi(), packedProject()])
}, 90_000)

afterAll(async () => {
  await live?.close()
})

const SHA = 'e83c5163316f89bfbde7d9ab23ca2e25604af290'

/** Runs one script line under `sh`, then fetches the deployment it reported. */
async function runLine(line: string, env: Record<string, string>) {
  const key = await live.createKey()
  const { stdout, stderr, code } = await runInProject(project, ['sh', '-c', line], {
    SHIPLOG_URL: live.url,
    SHIPLOG_API_KEY: key,
    ...env,
  })
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
  const id = /^Deployment (\S+) accepted: /m.exec(stdout)?.[1]
  expect(stdout).toContain('Recorded at ')
  return createShiplogClient({ baseUrl: live.url, apiKey: key }).getDeployment(id ?? '')
}

/** The README's ```yaml blocks, parsed. */
async function readmeYaml(): Promise<Record<string, unknown>[]> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
  return [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => {
    const parsed = Bun.YAML.parse(match[1] ?? '')
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  })
}

interface GitlabJob {
  extends?: string
  image?: string
  variables?: Record<string, string>
  script?: string[]
}

test('GitLab CI: a job extending the template, as the README shows, records the deployment', async () => {
  const template = Bun.YAML.parse(
    await readFile(join(ROOT, 'ci-templates/gitlab/shiplog.yml'), 'utf8'),
  ) as Record<string, GitlabJob>
  const hidden = template['.shiplog-notify']
  expect(hidden?.image).toStartWith('node:')
  const usage = (await readmeYaml()).find((block) => 'include' in block)
  const job = Object.values(usage ?? {}).find(
    (value): value is GitlabJob => (value as GitlabJob)?.extends === '.shiplog-notify',
  )
  expect(job).toBeDefined()

  const predefined: Record<string, string> = {
    GITLAB_CI: 'true',
    CI_COMMIT_SHA: SHA,
    CI_COMMIT_TAG: 'v7.0.0',
    CI_PROJECT_PATH: 'acme/gitlab-shop',
    CI_PROJECT_NAME: 'gitlab-shop',
    GITLAB_USER_LOGIN: 'ada',
  }
  // GitLab expands $NAME and ${NAME} in variables before the script runs.
  const variables = Object.fromEntries(
    Object.entries({ ...hidden?.variables, ...job?.variables }).map(([name, value]) => [
      name,
      String(value).replace(/\$\{?(\w+)\}?/g, (_, used: string) => predefined[used] ?? ''),
    ]),
  )
  const script = job?.script ?? hidden?.script ?? []
  expect(script).toHaveLength(1)
  const recorded = await runLine(script[0] ?? '', { ...predefined, ...variables })
  expect(recorded).toMatchObject({
    status: 'recorded',
    app: variables.SHIPLOG_APP,
    environment: variables.SHIPLOG_ENVIRONMENT,
    version: 'v7.0.0',
    commitHash: SHA,
    repositoryFullName: 'acme/gitlab-shop',
    author: 'ada',
  })
}, 60_000)

test("Buildkite: the README's step records the deployment with the build's commit and repo", async () => {
  const pipeline = (await readmeYaml()).find((block) => Array.isArray(block.steps))
  const steps = (pipeline?.steps ?? []) as { command?: string }[]
  const commands = steps.flatMap((step) => (step.command ? [step.command] : []))
  expect(commands).toHaveLength(1)
  const recorded = await runLine(commands[0] ?? '', {
    BUILDKITE: 'true',
    BUILDKITE_COMMIT: SHA,
    BUILDKITE_REPO: 'git@github.com:acme/buildkite-shop.git',
    BUILDKITE_BUILD_CREATOR: 'Grace Hopper',
    BUILDKITE_TAG: 'v8.0.0',
  })
  expect(recorded).toMatchObject({
    status: 'recorded',
    version: 'v8.0.0',
    commitHash: SHA,
    repositoryFullName: 'acme/buildkite-shop',
    author: 'Grace Hopper',
  })
}, 60_000)

interface CircleJob {
  docker?: { image: string }[]
  steps?: (string | { run?: string | { command: string } })[]
}

test("CircleCI: the README's job records the deployment with the build's commit and project", async () => {
  const config = (await readmeYaml()).find((block) => block.version === 2.1)
  const jobs = Object.values((config?.jobs ?? {}) as Record<string, CircleJob>)
  expect(jobs).toHaveLength(1)
  expect(jobs[0]?.docker?.[0]?.image).toStartWith('cimg/node:')
  const commands = (jobs[0]?.steps ?? []).flatMap((step) => {
    if (typeof step === 'string' || !step.run) return []
    return [typeof step.run === 'string' ? step.run : step.run.command]
  })
  expect(commands).toHaveLength(1)
  const recorded = await runLine(commands[0] ?? '', {
    CIRCLECI: 'true',
    CIRCLE_SHA1: SHA,
    CIRCLE_PROJECT_USERNAME: 'acme',
    CIRCLE_PROJECT_REPONAME: 'circle-shop',
    CIRCLE_USERNAME: 'linus',
    CIRCLE_TAG: 'v9.0.0',
  })
  expect(recorded).toMatchObject({
    status: 'recorded',
    version: 'v9.0.0',
    commitHash: SHA,
    repositoryFullName: 'acme/circle-shop',
    author: 'linus',
  })
}, 60_000)
