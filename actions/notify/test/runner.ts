import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { ROOT } from '../../../packages/client/test/live-api.ts'
import { inputVariable } from '../src/inputs.ts'

export const ACTION = join(ROOT, 'actions/notify')
export const BUNDLE = join(ACTION, 'dist/index.js')

/** One job of one run, as the runner describes it to each step. */
export interface Job {
  workspace: string
  sha: string
  repository: string
  runId: string
  attempt: number
  job: string
  actor?: string
  /** Who started this attempt: the actor, or whoever re-ran it. */
  triggeringActor?: string
  ref?: string
}

/**
 * The variables a GitHub-hosted runner sets for a step (the `GITHUB_*` context, `RUNNER_*`), with
 * the job's checkout as the workspace; `runAction` adds the files (GITHUB_OUTPUT…).
 */
export function runnerEnv(job: Job): Record<string, string> {
  const ref = job.ref ?? 'refs/tags/v1'
  return {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_SHA: job.sha,
    GITHUB_REF: ref,
    GITHUB_REF_NAME: ref.replace(/^refs\/(tags|heads)\//, ''),
    GITHUB_REF_TYPE: ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    GITHUB_REPOSITORY: job.repository,
    GITHUB_REPOSITORY_OWNER: job.repository.split('/')[0] ?? '',
    GITHUB_ACTOR: job.actor ?? 'octocat',
    GITHUB_TRIGGERING_ACTOR: job.triggeringActor ?? job.actor ?? 'octocat',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_WORKFLOW: 'Release',
    GITHUB_WORKFLOW_REF: `${job.repository}/.github/workflows/release.yml@${ref}`,
    GITHUB_RUN_ID: job.runId,
    GITHUB_RUN_NUMBER: '17',
    GITHUB_RUN_ATTEMPT: String(job.attempt),
    GITHUB_JOB: job.job,
    GITHUB_ACTION: 'shiplog',
    GITHUB_ACTION_PATH: ACTION,
    GITHUB_WORKSPACE: job.workspace,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com',
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
  }
}

/** The workflow commands of a step's stdout, by name: `{ error: [...], warning: [...] }`. */
function commandsOf(stdout: string): Record<string, string[]> {
  const found: Record<string, string[]> = {}
  for (const [, name = '', data = ''] of stdout.matchAll(/^::(\w+)::(.*)$/gm)) {
    found[name] = [...(found[name] ?? []), data.replaceAll('%0A', '\n').replaceAll('%25', '%')]
  }
  return found
}

/**
 * Runs the committed bundle as the runner runs a node action: `node dist/index.js` in the
 * workspace with `env`, the inputs as INPUT_* variables, only `path` on PATH, and the step's files
 * (outputs appended to the one in GITHUB_OUTPUT). Resolves with the exit code, what it printed,
 * its workflow commands by name, and the outputs (`written` as the file holds them).
 */
export async function runAction(
  inputs: Record<string, string>,
  env: Record<string, string>,
  options: { cwd: string; path: string },
) {
  const files = await mkdtemp(join(tmpdir(), 'shiplog-runner-'))
  try {
    const variables = Object.fromEntries(
      Object.entries(inputs).map(([name, value]) => [inputVariable(name), value]),
    )
    const outputFile = join(files, 'output')
    await writeFile(outputFile, '')
    const stepFiles = {
      GITHUB_OUTPUT: outputFile,
      GITHUB_ENV: join(files, 'env'),
      GITHUB_STEP_SUMMARY: join(files, 'summary'),
      RUNNER_TEMP: files,
      HOME: files,
    }
    const { stdout, stderr, code } = await runProcess(['node', BUNDLE], {
      cwd: options.cwd,
      env: { PATH: options.path, ...stepFiles, ...env, ...variables },
    })
    const written = await readFile(outputFile, 'utf8')
    const outputs = Object.fromEntries(
      written
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    )
    return { stdout, stderr, code, commands: commandsOf(stdout), written, outputs }
  } finally {
    await rm(files, { recursive: true, force: true })
  }
}
