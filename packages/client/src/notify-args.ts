import { parseArgs } from 'node:util'
import type { DeploymentInput } from '@shiplog/schema'
import { detectCi, type Env } from './ci-env.ts'
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
  wait: boolean
  timeoutMs: number
  /** Send the commits since the previous deployment, from the checkout's git history. */
  commits: boolean
  /** An incident this deployment fixes: resolved at its deployedAt once it is recorded. */
  fixes?: string
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
  'no-commits': { type: 'boolean' },
  fixes: { type: 'string' },
} as const

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

/**
 * Reads `shiplog notify`'s flags, falling back to SHIPLOG_URL / SHIPLOG_API_KEY and to the CI's
 * commit, repository and author. Throws a `UsageError` naming every missing or bad flag at once.
 */
export function parseNotifyArgs(args: string[], env: Env): NotifyPlan {
  let values: {
    [Name in keyof typeof NOTIFY_OPTIONS]?: Name extends 'wait' | 'no-commits' ? boolean : string
  }
  try {
    values = parseArgs({
      args,
      options: NOTIFY_OPTIONS,
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const ci = detectCi(env)
  const url = given(values.url) ?? given(env.SHIPLOG_URL)
  const apiKey = given(values['api-key']) ?? given(env.SHIPLOG_API_KEY)
  const app = given(values.app)
  const environment = given(values.environment)
  const version = given(values.version)
  const commitHash = given(values.commit) ?? ci.commitHash
  const repositoryFullName = given(values.repository) ?? ci.repositoryFullName
  const author = given(values.author) ?? ci.author

  const missing: string[] = []
  if (!url) missing.push('--url (or SHIPLOG_URL)')
  if (!apiKey) missing.push('--api-key (or SHIPLOG_API_KEY)')
  if (!app) missing.push('--app')
  if (!environment) missing.push('--environment')
  if (!version) missing.push('--version')
  if (!commitHash) missing.push('--commit (not detected from a supported CI)')
  if (!repositoryFullName) missing.push('--repository (not detected from a supported CI)')
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
  const idempotencyKey = given(values['idempotency-key'])
  const fixes = given(values.fixes)
  return {
    url: parseUrl(url),
    apiKey,
    input,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    wait: values.wait ?? false,
    timeoutMs: parseTimeout(values.timeout),
    commits: !values['no-commits'],
    ...(fixes === undefined ? {} : { fixes }),
  }
}
