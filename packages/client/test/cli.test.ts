import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProcess } from '@shiplog/db/testing'
import { createShiplogClient } from '../src/index.ts'
import { type LiveApi, ROOT, startLiveApi } from './live-api.ts'

const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8'

let live: LiveApi
let key: string
/** A directory in no git checkout. */
let outside: string

beforeAll(async () => {
  live = await startLiveApi()
  key = await live.createKey()
  outside = await mkdtemp(join(tmpdir(), 'shiplog-cli-'))
}, 60_000)

afterAll(async () => {
  await live?.close()
  if (outside) await rm(outside, { recursive: true, force: true })
})

// The parent's own CI variables (this suite may itself run in CI) must not leak into the CLI.
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^(GITHUB_|GITLAB_|CI_|BUILDKITE|CIRCLE|SHIPLOG_)/.test(name),
  ),
)

const CLI = join(ROOT, 'packages/client/src/cli.ts')
const BUN = ['bun', CLI]

/** The Deno binary of the root devDependency, if installed (the npm wrapper would add a Node hop). */
function denoBinary(): string | undefined {
  try {
    return createRequire(`${ROOT}package.json`)('deno/install_api.cjs').runInstall()
  } catch {
    return undefined
  }
}

async function shiplog(
  args: string[],
  env: Record<string, string> = {},
  command = BUN,
  cwd = ROOT,
) {
  return runProcess([...command, ...args], {
    cwd,
    env: { ...inherited, NO_COLOR: '1', SHIPLOG_API_KEY: key, ...env },
  })
}

const GITHUB_ACTIONS = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SHA: SHA,
  GITHUB_REPOSITORY: 'acme/storefront',
  GITHUB_ACTOR: 'octocat',
}

test('notify --wait in GitHub Actions: recorded with the commit, repository and actor', async () => {
  const run = await shiplog(
    [
      'notify',
      '--url',
      live.url,
      '--app',
      'storefront',
      '--environment',
      'production',
      '--version',
      'v2.0.0',
      '--wait',
      '--timeout',
      '30',
    ],
    GITHUB_ACTIONS,
  )
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
  const [accepted, url, pageLine, first, waiting, recorded] = run.stdout.trimEnd().split('\n')
  const id = /^Deployment (\S+) accepted: storefront v2\.0\.0 to production$/.exec(
    accepted ?? '',
  )?.[1]
  expect(id).toBeDefined()
  expect(url).toBe(`${live.url}/v1/deployments/${id}`)
  expect(pageLine).toBe(`Its page: ${live.url}/ui/deployments/${id}`)
  // The suite's own checkout does not have the commit: a first deployment sends no history then.
  expect(first).toBe(
    `The first deployment of this app here: commit ${SHA.slice(0, 12)} is not in this checkout, so no history was sent.`,
  )
  expect(waiting).toBe('Waiting up to 30 s for it to be recorded…')
  expect(recorded).toStartWith('Recorded at ')
  expect(run.stdout).not.toContain(key)

  const client = createShiplogClient({ baseUrl: live.url, apiKey: key })
  const page = await client.listDeployments({ app: 'storefront' })
  expect(page.data).toHaveLength(1)
  expect(page.data[0]).toMatchObject({
    id,
    repositoryFullName: 'acme/storefront',
    commitHash: SHA,
    author: 'octocat',
    version: 'v2.0.0',
  })
}, 40_000)

test('an invalid request prints the detail and each field error on its own line, exit 2', async () => {
  const run = await shiplog(
    [
      'notify',
      '--url',
      live.url,
      '--app',
      'storefront',
      '--environment',
      'production',
      '--version',
      'v2.0.1',
      '--commit',
      'not-a-sha',
      '--deployed-at',
      'yesterday',
    ],
    GITHUB_ACTIONS,
  )
  expect(run.code).toBe(2)
  expect(run.stdout).toBe('')
  const lines = run.stderr.trimEnd().split('\n')
  expect(lines[0]).toBe(
    'error: 422 Validation failed: The request has 2 invalid fields: fix every one listed in errors and send it again.',
  )
  expect(lines.slice(1).map((line) => line.replace(/: .*/, ''))).toEqual([
    '  commitHash (--commit)',
    '  deployedAt (--deployed-at)',
  ])
  expect(run.stderr).not.toContain(key)
})

test('a refused key is exit 2 with the reason; the key is never printed', async () => {
  const wrong = `shiplog_${'B'.repeat(43)}`
  const run = await shiplog(
    ['notify', '--url', live.url, '--app', 'a', '--environment', 'e', '--version', '1'],
    { ...GITHUB_ACTIONS, SHIPLOG_API_KEY: wrong },
  )
  expect(run.code).toBe(2)
  expect(run.stderr).toStartWith('error: 401 Unauthorized: The API key is not valid')
  expect(run.stderr + run.stdout).not.toContain(wrong)
})

test('missing flags outside a CI and a checkout are a usage error, exit 2, without calling the API', async () => {
  const run = await shiplog(['notify', '--url', live.url, '--app', 'storefront'], {}, BUN, outside)
  expect(run.code).toBe(2)
  expect(run.stderr).toBe(
    'error: missing --environment, --version, --commit (not detected from the CI or a git checkout), ' +
      "--repository (not detected from the CI or the checkout's origin remote)\n" +
      'Run `shiplog notify --help` for the flags.\n',
  )
})

const deno = denoBinary()

test.skipIf(!deno)(
  'the same CLI runs unchanged under Deno',
  async () => {
    const command = [
      deno as string,
      'run',
      '--allow-env',
      '--allow-net',
      '--allow-read',
      '--allow-run=git',
      CLI,
    ]
    const ok = await shiplog(
      [
        'notify',
        '--url',
        live.url,
        '--app',
        'on-deno',
        '--environment',
        'e',
        '--version',
        '1',
        '--wait',
      ],
      GITHUB_ACTIONS,
      command,
    )
    expect({ code: ok.code, stderr: ok.stderr }).toEqual({ code: 0, stderr: '' })
    expect(ok.stdout).toMatch(/^Deployment \S+ accepted: on-deno 1 to e\n/)
    expect(ok.stdout).toContain('Recorded at ')

    // Outside a checkout, a commit the CI does not give is missing.
    const invalid = await shiplog(
      ['notify', '--url', live.url, '--app', 'on-deno', '--environment', 'e', '--version', '1'],
      { ...GITHUB_ACTIONS, GITHUB_SHA: 'HEAD' },
      command,
      outside,
    )
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toContain(
      'missing --commit (not detected from the CI or a git checkout)',
    )
  },
  40_000,
)

test('incident open names the cause; incident resolve resolves it; the default key may not', async () => {
  const oncall = await live.createKey({
    workspace: 'cli-incidents',
    scopes: ['deployments:write', 'incidents:write', 'read'],
  })
  const deployed = await shiplog(
    [
      'notify',
      '--url',
      live.url,
      '--app',
      'checkout',
      '--environment',
      'production',
      '--version',
      'v9',
      '--deployed-at',
      '2026-05-04T10:00:00Z',
      '--wait',
    ],
    { ...GITHUB_ACTIONS, SHIPLOG_API_KEY: oncall },
  )
  expect(deployed.code).toBe(0)
  const deploymentId = /^Deployment (\S+) accepted/.exec(deployed.stdout)?.[1] as string

  const opened = await shiplog(
    [
      'incident',
      'open',
      '--url',
      live.url,
      '--environment',
      'production',
      '--app',
      'checkout',
      '--title',
      'Checkout returns 500s',
      '--cause',
      deploymentId,
    ],
    { SHIPLOG_API_KEY: oncall },
  )
  expect({ code: opened.code, stderr: opened.stderr }).toEqual({ code: 0, stderr: '' })
  const [summary, incidentId] = opened.stdout.trimEnd().split('\n')
  expect(summary).toBe(
    'Incident opened in production since 2026-05-04T10:00:00.000Z: Checkout returns 500s',
  )

  const resolved = await shiplog(
    ['incident', 'resolve', incidentId as string, '--at', '2026-05-04T10:30:00Z'],
    { SHIPLOG_URL: live.url, SHIPLOG_API_KEY: oncall },
  )
  expect({ code: resolved.code, stderr: resolved.stderr }).toEqual({ code: 0, stderr: '' })
  const client = createShiplogClient({ baseUrl: live.url, apiKey: oncall })
  expect(await client.getIncident(incidentId as string)).toMatchObject({
    status: 'resolved',
    resolvedAt: '2026-05-04T10:30:00.000Z',
    causeDeploymentId: deploymentId,
  })

  // A pipeline's default key: 403, exit 2 with the problem's detail; a bad flag: exit 2 too.
  const refused = await shiplog([
    'incident',
    'open',
    '--url',
    live.url,
    '--environment',
    'production',
    '--title',
    'x',
  ])
  expect(refused.code).toBe(2)
  expect(refused.stderr).toContain('needs incidents:write')
  const usage = await shiplog(['incident', 'open', '--url', live.url, '--title', 'x'])
  expect(usage.code).toBe(2)
  expect(usage.stderr).toContain('missing --environment')
})
