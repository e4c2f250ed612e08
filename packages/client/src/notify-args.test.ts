import { expect, test } from 'bun:test'
import { parseNotifyArgs, UsageError } from './notify-args.ts'
import { EXAMPLE_DEPLOYMENT, EXAMPLE_SERVER } from './testing/example-plan.ts'

const SHA = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'
const REQUIRED = ['--app', 'checkout', '--environment', 'production', '--version', '1.2.3']
const SERVER = { SHIPLOG_URL: 'https://shiplog.example.com', SHIPLOG_API_KEY: 'shiplog_secret' }
const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SHA: SHA,
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_ACTOR: 'octocat',
}

const usageError = (run: () => unknown): UsageError => {
  try {
    run()
  } catch (error) {
    if (error instanceof UsageError) return error
    throw error
  }
  throw new Error('expected a UsageError')
}

test('commit, repository and author come from the CI; URL and key from the environment', () => {
  expect(parseNotifyArgs(REQUIRED, { ...SERVER, ...GITHUB })).toEqual({
    ...EXAMPLE_SERVER,
    input: {
      ...EXAMPLE_DEPLOYMENT,
      commitHash: SHA,
      author: 'octocat',
    },
    wait: false,
    timeoutMs: 120_000,
    commits: true,
    requireCommits: false,
    webUrl: 'https://github.com/acme/shop',
  })
})

test('flags win over the environment, and every optional field is passed through', () => {
  const plan = parseNotifyArgs(
    [
      ...REQUIRED,
      '--url=http://localhost:3000',
      '--api-key',
      'shiplog_flag',
      '--commit',
      'abcdef1',
      '--repository',
      'acme/other',
      '--author',
      'me',
      '--description',
      'hotfix',
      '--deployed-at',
      '2026-05-01T12:00:00Z',
      '--monorepo-path',
      'apps/checkout',
      '--idempotency-key',
      'run-42',
      '--wait',
      '--no-commits',
      '--timeout',
      '7.5',
    ],
    { ...SERVER, ...GITHUB },
  )
  expect(plan).toEqual({
    url: 'http://localhost:3000/',
    apiKey: 'shiplog_flag',
    input: {
      repositoryFullName: 'acme/other',
      environment: 'production',
      app: 'checkout',
      version: '1.2.3',
      commitHash: 'abcdef1',
      author: 'me',
      description: 'hotfix',
      deployedAt: '2026-05-01T12:00:00Z',
      monorepoPath: 'apps/checkout',
    },
    idempotencyKey: 'run-42',
    wait: true,
    timeoutMs: 7_500,
    commits: false,
    requireCommits: false,
    webUrl: 'https://github.com/acme/shop',
  })
})

test('everything missing is named at once; an empty flag counts as missing', () => {
  const error = usageError(() => parseNotifyArgs(['--version', ''], {}))
  expect(error.message).toBe(
    'missing --url (or SHIPLOG_URL), --api-key (or SHIPLOG_API_KEY), --app, --environment, ' +
      "--version, --commit (not detected from the CI or a git checkout), --repository (not detected from the CI or the checkout's origin remote)",
  )
})

test.each([
  [['--nope'], "Unknown option '--nope'"],
  [['stray'], 'Unexpected argument'],
  [['--timeout', '0'], '--timeout must be a positive number of seconds'],
  [['--url', 'ftp://shiplog'], '--url must be an http(s) URL'],
  [['--retry-for=-1'], '--retry-for must be a number of seconds ≥ 0 (0: no retries), got "-1"'],
  [['--retry-for=2m'], '--retry-for must be a number of seconds'],
])('%p is a usage error', (extra, message) => {
  const error = usageError(() => parseNotifyArgs([...REQUIRED, ...extra], { ...SERVER, ...GITHUB }))
  expect(error.message).toContain(message)
})

test('--retry-for wins over SHIPLOG_RETRY_FOR; neither leaves the budget to the client', () => {
  const env = { ...SERVER, ...GITHUB, SHIPLOG_RETRY_FOR: '300' }
  expect(parseNotifyArgs([...REQUIRED, '--retry-for', '2.5'], env).retryForMs).toBe(2_500)
  expect(parseNotifyArgs(REQUIRED, env).retryForMs).toBe(300_000)
  expect(parseNotifyArgs([...REQUIRED, '--retry-for=0'], env).retryForMs).toBe(0)
  // A template leaving the variable empty means "not set", as for every other one.
  expect(parseNotifyArgs(REQUIRED, { ...env, SHIPLOG_RETRY_FOR: '' })).not.toHaveProperty(
    'retryForMs',
  )
  const bad = usageError(() => parseNotifyArgs(REQUIRED, { ...env, SHIPLOG_RETRY_FOR: 'soon' }))
  expect(bad.message).toStartWith('SHIPLOG_RETRY_FOR must be a number of seconds')
})

test('the API key never appears in a usage error', () => {
  const error = usageError(() =>
    parseNotifyArgs([...REQUIRED, '--url', 'not a url'], { ...SERVER, ...GITHUB }),
  )
  expect(error.message).not.toContain('shiplog_secret')
})

test('outside a CI, the checkout gives commit, repository and author; inside one, not the author', () => {
  const local = { commitHash: SHA, repositoryFullName: 'acme/laptop', author: 'Ada' }
  expect(parseNotifyArgs(REQUIRED, SERVER, local).input).toMatchObject(local)
  const jenkins = { ...SERVER, JENKINS_URL: 'https://ci.example/', BUILD_TAG: 'jenkins-shop-7' }
  const inJenkins = parseNotifyArgs(REQUIRED, jenkins, local).input
  expect(inJenkins).toMatchObject({ commitHash: SHA, repositoryFullName: 'acme/laptop' })
  expect(inJenkins.author).toBeUndefined()
})

const RUN = { ...SERVER, ...GITHUB, GITHUB_RUN_ID: '9001', GITHUB_JOB: 'deploy' }

test('in a CI job the Idempotency-Key is made from its run and job, never the attempt', () => {
  const first = parseNotifyArgs(REQUIRED, { ...RUN, GITHUB_RUN_ATTEMPT: '1' })
  const again = parseNotifyArgs(REQUIRED, { ...RUN, GITHUB_RUN_ATTEMPT: '2' })
  expect(first.idempotencyKey).toMatch(/^github-actions-[0-9a-f]{64}$/)
  expect(again.idempotencyKey).toBe(first.idempotencyKey as string)
  expect(first.rerun?.from).toBe('GITHUB_RUN_ID=9001 GITHUB_JOB=deploy')
  // Another run, job, application or environment is another deployment.
  const others = [
    parseNotifyArgs(REQUIRED, { ...RUN, GITHUB_RUN_ID: '9002' }),
    parseNotifyArgs(REQUIRED, { ...RUN, GITHUB_JOB: 'deploy-eu' }),
    parseNotifyArgs(['--app', 'cart', ...REQUIRED.slice(2)], RUN),
    parseNotifyArgs(
      [...REQUIRED.slice(0, 2), '--environment', 'staging', ...REQUIRED.slice(4)],
      RUN,
    ),
  ]
  const keys = new Set([first, ...others].map((plan) => plan.idempotencyKey))
  expect(keys.size).toBe(5)
})

test('an explicit key wins; without the run and job the key is left to the client', () => {
  const explicit = parseNotifyArgs([...REQUIRED, '--idempotency-key', 'release-7'], RUN)
  expect(explicit.idempotencyKey).toBe('release-7')
  expect(explicit.rerun).toBeUndefined()
  const noRun = parseNotifyArgs(REQUIRED, { ...SERVER, ...GITHUB })
  expect(noRun.idempotencyKey).toBeUndefined()
})

test('--require-commits is kept; with --no-commits it is a usage error', () => {
  expect(parseNotifyArgs([...REQUIRED, '--require-commits'], RUN).requireCommits).toBe(true)
  const error = usageError(() =>
    parseNotifyArgs([...REQUIRED, '--require-commits', '--no-commits'], RUN),
  )
  expect(error.message).toContain('--require-commits asks for the commits')
})
