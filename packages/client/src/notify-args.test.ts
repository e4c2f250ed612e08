import { expect, test } from 'bun:test'
import { parseNotifyArgs, UsageError } from './notify-args.ts'

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
    url: 'https://shiplog.example.com/',
    apiKey: 'shiplog_secret',
    input: {
      repositoryFullName: 'acme/shop',
      environment: 'production',
      app: 'checkout',
      version: '1.2.3',
      commitHash: SHA,
      author: 'octocat',
    },
    wait: false,
    timeoutMs: 120_000,
    commits: true,
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
  })
})

test('everything missing is named at once; an empty flag counts as missing', () => {
  const error = usageError(() => parseNotifyArgs(['--version', ''], {}))
  expect(error.message).toBe(
    'missing --url (or SHIPLOG_URL), --api-key (or SHIPLOG_API_KEY), --app, --environment, ' +
      '--version, --commit (not detected from a supported CI), ' +
      '--repository (not detected from a supported CI)',
  )
})

test.each([
  [['--nope'], "Unknown option '--nope'"],
  [['stray'], 'Unexpected argument'],
  [['--timeout', '0'], '--timeout must be a positive number of seconds'],
  [['--url', 'ftp://shiplog'], '--url must be an http(s) URL'],
])('%p is a usage error', (extra, message) => {
  const error = usageError(() => parseNotifyArgs([...REQUIRED, ...extra], { ...SERVER, ...GITHUB }))
  expect(error.message).toContain(message)
})

test('the API key never appears in a usage error', () => {
  const error = usageError(() =>
    parseNotifyArgs([...REQUIRED, '--url', 'not a url'], { ...SERVER, ...GITHUB }),
  )
  expect(error.message).not.toContain('shiplog_secret')
})
