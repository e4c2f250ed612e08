import { parseArgs } from 'node:util'
import type { IncidentInput } from '@shiplog/schema'
import type { Env } from './ci-env.ts'
import { given, parseUrl, UsageError } from './notify-args.ts'

/** What `shiplog incident open` or `resolve` was asked to do, checked and ready to send. */
export type IncidentPlan = { url: string; apiKey: string } & (
  | { command: 'open'; input: IncidentInput }
  | { command: 'resolve'; id: string; resolvedAt: string }
)

const OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  environment: { type: 'string' },
  app: { type: 'string' },
  title: { type: 'string' },
  cause: { type: 'string' },
  'started-at': { type: 'string' },
  at: { type: 'string' },
} as const

/** The flag that sets each field, so API errors can name what the user typed. */
export const FLAG_OF_INCIDENT_FIELD: Readonly<Record<string, string>> = {
  environment: '--environment',
  app: '--app',
  title: '--title',
  causeDeploymentId: '--cause',
  startedAt: '--started-at',
  resolvedAt: '--at',
}

/** The API and key from the flags, else SHIPLOG_URL and SHIPLOG_API_KEY, and what is missing. */
export function connection(values: { url?: string; 'api-key'?: string }, env: Env) {
  const givenUrl = given(values.url) ?? given(env.SHIPLOG_URL)
  const apiKey = given(values['api-key']) ?? given(env.SHIPLOG_API_KEY)
  const missing = [
    ...(givenUrl ? [] : ['--url (or SHIPLOG_URL)']),
    ...(apiKey ? [] : ['--api-key (or SHIPLOG_API_KEY)']),
  ]
  return { url: givenUrl === undefined ? undefined : parseUrl(givenUrl), apiKey, missing }
}

/**
 * Reads `shiplog incident open|resolve`'s flags (SHIPLOG_URL and SHIPLOG_API_KEY as fallbacks);
 * throws a `UsageError` naming every missing flag at once. `now` is when resolve resolves
 * without `--at`.
 */
export function parseIncidentArgs(args: string[], env: Env, now: Date): IncidentPlan {
  let parsed: {
    values: { [Name in keyof typeof OPTIONS]?: string }
    positionals: string[]
  }
  try {
    parsed = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values, positionals } = parsed
  const [command, id, ...extra] = positionals
  const { url, apiKey, missing } = connection(values, env)
  if (command === 'open') {
    const environment = given(values.environment)
    const title = given(values.title)
    if (!environment) missing.push('--environment')
    if (!title) missing.push('--title')
    if (id !== undefined) throw new UsageError(`open takes no argument, got ${JSON.stringify(id)}`)
    if (!url || !apiKey || !environment || !title) {
      throw new UsageError(`missing ${missing.join(', ')}`)
    }
    const input: IncidentInput = { environment, title }
    const app = given(values.app)
    const cause = given(values.cause)
    const startedAt = given(values['started-at'])
    if (app !== undefined) input.app = app
    if (cause !== undefined) input.causeDeploymentId = cause
    if (startedAt !== undefined) input.startedAt = startedAt
    return { url, apiKey, command, input }
  }
  if (command === 'resolve') {
    if (!given(id)) missing.push('the incident id (shiplog incident resolve <id>)')
    if (extra.length > 0)
      throw new UsageError(`resolve takes one incident id, got ${extra.length + 1}`)
    if (!url || !apiKey || !id) throw new UsageError(`missing ${missing.join(', ')}`)
    return { url, apiKey, command, id, resolvedAt: given(values.at) ?? now.toISOString() }
  }
  throw new UsageError(
    command === undefined
      ? 'missing the subcommand: open or resolve'
      : `unknown subcommand ${JSON.stringify(command)}: open or resolve`,
  )
}
