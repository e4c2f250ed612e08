import { parseArgs } from 'node:util'
import type { DeploymentInput } from '@shiplog/schema'
import { type CiContext, detectCi, type Env } from './ci-env.ts'
import { type CheckoutContext, checkoutContext, type Git } from './git-checkout.ts'
import { type RerunKey, rerunKey } from './rerun-key.ts'
import { DEFAULT_WAIT_TIMEOUT_MS } from './wait.ts'

/** A mistake in how the command was called: exit code 2, like a 422. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** Everything `shiplog notify` was asked to do, checked and ready to send. */
export interface NotifyPlan {
  url: string
  apiKey: string
  input: DeploymentInput
  idempotencyKey?: string
  /**
   * Set when the key was derived from the CI's run and job (no --idempotency-key): a re-run that
   * the API refuses because its fields differ from the first run's records nothing, quietly.
   */
  rerun?: RerunKey
  wait: boolean
  timeoutMs: number
  /** How long to keep retrying while Shiplog is unavailable; the client's default when unset. */
  retryForMs?: number
  /** Send the commits since the previous deployment, from the checkout's git history. */
  commits: boolean
  /** Exit 3 once the deployment is accepted if its commits could not be read. */
  requireCommits: boolean
  /** An incident this deployment fixes: resolved at its deployedAt once it is recorded. */
  fixes?: string
  /** The repository's web address from the CI, sent with the commits (else from `origin`). */
  webUrl?: string
}

export const NOTIFY_OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  app: { type: 'string' },
  environment: { type: 'string' },
  version: { type: 'string' },
  commit: { type: 'string' },
  repository: { type: 'string' },
  author: { type: 'string' },
  description: { type: 'string' },
  'deployed-at': { type: 'string' },
  'monorepo-path': { type: 'string' },
  'idempotency-key': { type: 'string' },
  wait: { type: 'boolean' },
  timeout: { type: 'string' },
  'retry-for': { type: 'string' },
  'no-commits': { type: 'boolean' },
  'require-commits': { type: 'boolean' },
  fixes: { type: 'string' },
} as const

type Flags = {
  [Name in keyof typeof NOTIFY_OPTIONS]?: (typeof NOTIFY_OPTIONS)[Name]['type'] extends 'boolean'
    ? boolean
    : string
}

/** The flag that sets each field of the request, so API errors can name what the user typed. */
export const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  repositoryFullName: '--repository',
  environment: '--environment',
  app: '--app',
  version: '--version',
  commitHash: '--commit',
  description: '--description',
  author: '--author',
  deployedAt: '--deployed-at',
  monorepoPath: '--monorepo-path',
  'Idempotency-Key': '--idempotency-key',
}

/**
 * A flag's value, trimmed, or undefined: a pipeline interpolating an unset variable passes "",
 * which means "not given", not "empty".
 */
export const given = (value: string | undefined) => {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

function parseTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_WAIT_TIMEOUT_MS
  const seconds = Number(value)
  if (!(Number.isFinite(seconds) && seconds > 0)) {
    throw new UsageError(
      `--timeout must be a positive number of seconds, got ${JSON.stringify(value)}`,
    )
  }
  return seconds * 1000
}

/** `--retry-for`, else SHIPLOG_RETRY_FOR, in milliseconds; undefined when neither is given. */
function parseRetryFor(flag: string | undefined, env: string | undefined): number | undefined {
  const [name, value] = flag === undefined ? ['SHIPLOG_RETRY_FOR', env] : ['--retry-for', flag]
  if (value === undefined) return undefined
  const seconds = Number(value)
  if (!(Number.isFinite(seconds) && seconds >= 0)) {
    throw new UsageError(
      `${name} must be a number of seconds ≥ 0 (0: no retries), got ${JSON.stringify(value)}`,
    )
  }
  return seconds * 1000
}

/** A Shiplog URL from `--url` or SHIPLOG_URL: http or https, else a `UsageError`. */
export function parseUrl(value: string): string {
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href
  } catch {
    // Reported below.
  }
  throw new UsageError(
    `--url must be an http(s) URL such as https://shiplog.example.com, got ${JSON.stringify(value)}`,
  )
}

function readFlags(args: string[]): Flags {
  try {
    return parseArgs({ args, options: NOTIFY_OPTIONS, strict: true, allowPositionals: false })
      .values
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/**
 * Reads `shiplog notify`'s flags, falling back to SHIPLOG_URL / SHIPLOG_API_KEY, to the CI's
 * commit, repository and author, then to what the git checkout says (`local`: HEAD, origin, and
 * the git user as author outside a CI). Throws a `UsageError` naming every missing or bad flag at
 * once.
 */
export function parseNotifyArgs(args: string[], env: Env, local: CheckoutContext = {}): NotifyPlan {
  return planOf(readFlags(args), env, detectCi(env), local)
}

/**
 * `parseNotifyArgs`, asking git in the checkout (`git`) for what neither the flags nor the CI
 * give: the commit, the repository, and outside a CI the author.
 */
export async function planNotify(args: string[], env: Env, git: Git): Promise<NotifyPlan> {
  const flags = readFlags(args)
  const ci = detectCi(env)
  const lacking =
    !(given(flags.commit) ?? ci.commitHash) ||
    !(given(flags.repository) ?? ci.repositoryFullName) ||
    (ci.provider === undefined && !given(flags.author))
  return planOf(flags, env, ci, lacking ? await checkoutContext(git) : {})
}

function planOf(values: Flags, env: Env, ci: CiContext, local: CheckoutContext): NotifyPlan {
  const url = given(values.url) ?? given(env.SHIPLOG_URL)
  const apiKey = given(values['api-key']) ?? given(env.SHIPLOG_API_KEY)
  const app = given(values.app)
  const environment = given(values.environment)
  const version = given(values.version)
  const commitHash = given(values.commit) ?? ci.commitHash ?? local.commitHash
  const repositoryFullName =
    given(values.repository) ?? ci.repositoryFullName ?? local.repositoryFullName
  // The git user is who deploys from a laptop, not from a CI's shared checkout.
  const author = given(values.author) ?? ci.author ?? (ci.provider ? undefined : local.author)

  const missing: string[] = []
  if (!url) missing.push('--url (or SHIPLOG_URL)')
  if (!apiKey) missing.push('--api-key (or SHIPLOG_API_KEY)')
  if (!app) missing.push('--app')
  if (!environment) missing.push('--environment')
  if (!version) missing.push('--version')
  if (!commitHash) missing.push('--commit (not detected from the CI or a git checkout)')
  if (!repositoryFullName) {
    missing.push("--repository (not detected from the CI or the checkout's origin remote)")
  }
  if (!url || !apiKey || !app || !environment || !version || !commitHash || !repositoryFullName) {
    throw new UsageError(`missing ${missing.join(', ')}`)
  }

  const input: DeploymentInput = { repositoryFullName, environment, app, version, commitHash }
  const optional = {
    author,
    description: given(values.description),
    deployedAt: given(values['deployed-at']),
    monorepoPath: given(values['monorepo-path']),
  }
  for (const [field, value] of Object.entries(optional)) {
    if (value !== undefined) input[field as keyof typeof optional] = value
  }
  if (values['require-commits'] && values['no-commits']) {
    throw new UsageError(
      '--require-commits asks for the commits that --no-commits leaves out: pass one',
    )
  }
  const explicitKey = given(values['idempotency-key'])
  const rerun = explicitKey === undefined ? rerunKey(ci, input) : undefined
  const idempotencyKey = explicitKey ?? rerun?.key
  const fixes = given(values.fixes)
  const retryForMs = parseRetryFor(given(values['retry-for']), given(env.SHIPLOG_RETRY_FOR))
  return {
    url: parseUrl(url),
    apiKey,
    input,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    ...(rerun === undefined ? {} : { rerun }),
    wait: values.wait ?? false,
    timeoutMs: parseTimeout(values.timeout),
    ...(retryForMs === undefined ? {} : { retryForMs }),
    commits: !values['no-commits'],
    requireCommits: values['require-commits'] ?? false,
    ...(fixes === undefined ? {} : { fixes }),
    ...(ci.webUrl === undefined ? {} : { webUrl: ci.webUrl }),
  }
}
