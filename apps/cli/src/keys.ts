import { issueApiKey, revokeKey } from '@shiplog/db/issue-api-key'
import { findKeysByIdOrPrefix, listApiKeys } from '@shiplog/db/queries/api-keys'
import {
  checkKeyName,
  DEFAULT_SCOPES,
  isInvalid,
  isScope,
  printableName,
  SCOPES,
  type Scope,
} from '@shiplog/schema'
import { parseCommandArgs, runCommand, table, UsageError, utcSeconds } from './command.ts'
import { openDatabase } from './database.ts'

// The column is a Postgres integer; a larger limit would reach the database as an error.
const MAX_RATE_LIMIT_PER_MINUTE = 2_147_483_647

const USAGE = `Usage:
  bun run keys create --workspace <slug> --name <label> [--scope <scope>]… [--rate-limit <per-minute>]
      create a key (and the workspace if new); the key is the last line printed, shown once.
      The label says who or what uses it: printable text, at most 100 characters.
      Scopes (repeat --scope, or separate them with commas; default: deployments:write,read):
        deployments:write  record deployments and their commits
        incidents:write    open, change and resolve incidents
        environments:write set environments' place in the pipeline and their production mark
        read               read deployments, applications, state and metrics
        admin              all of the above, and void deployments
  bun run keys list [--workspace <slug>]
      list keys: id, workspace, name, prefix, limit, created, last used, status
  bun run keys revoke <key-prefix-or-id>
      revoke a key; every API replica refuses it within 5 seconds
  bun run keys -h
      show this help`

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/

/** The scopes named by --scope (repeated, or comma-separated), or the default ones. */
function scopesOf(given: string[] | undefined): Scope[] {
  if (!given) return [...DEFAULT_SCOPES]
  const named = given.flatMap((value) => value.split(',')).map((value) => value.trim())
  const unknown = named.filter((value) => !isScope(value))
  if (unknown.length > 0 || named.length === 0) {
    throw new UsageError(
      `--scope must name one of ${SCOPES.join(', ')}; got ${unknown.map((value) => `"${value}"`).join(', ') || 'nothing'}`,
    )
  }
  return [...new Set(named.filter(isScope))]
}

await runCommand(USAGE, async (argv, env) => {
  const { positionals, values } = parseCommandArgs(argv, {
    workspace: { type: 'string' },
    name: { type: 'string' },
    'rate-limit': { type: 'string' },
    scope: { type: 'string', multiple: true },
  }) as {
    positionals: string[]
    values: Record<string, string | undefined> & { scope?: string[] }
  }
  const [command, target] = positionals

  if (command === 'create') {
    const { workspace, name } = values
    if (!workspace || !SLUG.test(workspace)) {
      throw new UsageError('--workspace must be a slug: lower-case letters, digits and dashes')
    }
    if (name === undefined) throw new UsageError('--name is required: who or what uses the key')
    const checkedName = checkKeyName(name)
    if (isInvalid(checkedName)) throw new UsageError(`--name ${checkedName.error}`)
    const rateLimit = values['rate-limit']
    const perMinute = rateLimit === undefined ? null : Number(rateLimit)
    if (
      perMinute !== null &&
      !(Number.isInteger(perMinute) && perMinute > 0 && perMinute <= MAX_RATE_LIMIT_PER_MINUTE)
    ) {
      throw new UsageError(
        `--rate-limit must be a whole number of requests per minute, from 1 to ${MAX_RATE_LIMIT_PER_MINUTE.toLocaleString('en-US')}`,
      )
    }
    const scopes = scopesOf(values.scope)
    const db = await openDatabase(env)
    try {
      const issued = await issueApiKey(db.sql, {
        workspace,
        name: checkedName,
        scopes,
        rateLimitPerMinute: perMinute,
      })
      console.log(
        `Created key "${checkedName}" (id ${issued.id}, prefix ${issued.prefix}) for workspace "${workspace}"` +
          `${issued.workspaceCreated ? ' (new workspace)' : ''}, with the scopes ${scopes.join(', ')}` +
          `${perMinute ? `, limited to ${perMinute} requests a minute` : ''}.`,
      )
      console.log('Store it now: only its hash is kept, so it cannot be shown again.')
      console.log(issued.key)
    } finally {
      await db.close()
    }
    return
  }

  if (command === 'list') {
    const db = await openDatabase(env)
    try {
      const keys = await listApiKeys(db.sql, values.workspace)
      if (keys.length === 0) {
        console.log(
          'No keys yet. Create one with: bun run keys create --workspace <slug> --name <label>',
        )
        return
      }
      console.log(
        table(
          [
            'ID',
            'WORKSPACE',
            'NAME',
            'PREFIX',
            'SCOPES',
            'LIMIT/MIN',
            'CREATED',
            'LAST USED',
            'STATUS',
          ],
          keys.map((key) => [
            key.id,
            key.workspace,
            printableName(key.name),
            key.prefix,
            key.scopes.join(','),
            key.rateLimitPerMinute ? String(key.rateLimitPerMinute) : 'default',
            utcSeconds(key.createdAt),
            utcSeconds(key.lastUsedAt),
            key.revokedAt ? `revoked ${utcSeconds(key.revokedAt)}` : 'active',
          ]),
        ),
      )
    } finally {
      await db.close()
    }
    return
  }

  if (command === 'revoke') {
    if (!target || target.length < 12) {
      throw new UsageError('revoke needs a key id or a key prefix of at least 12 characters')
    }
    const db = await openDatabase(env)
    try {
      const matches = await findKeysByIdOrPrefix(db.sql, target)
      if (matches.length === 0) throw new Error(`no key matches "${target}"; see bun run keys list`)
      if (matches.length > 1) {
        throw new Error(
          `"${target}" matches ${matches.length} keys (${matches.map((key) => key.id).join(', ')}); pass the id`,
        )
      }
      const key = matches[0] as (typeof matches)[number]
      const revoked = await revokeKey(db.sql, key.id)
      console.log(
        revoked
          ? `Revoked key "${printableName(key.name)}" (${key.prefix}) of workspace "${key.workspace}". Every API replica refuses it within 5 seconds.`
          : `Key "${printableName(key.name)}" (${key.prefix}) was already revoked.`,
      )
    } finally {
      await db.close()
    }
    return
  }

  throw new UsageError(command ? `unknown command "${command}"` : 'missing command')
})
