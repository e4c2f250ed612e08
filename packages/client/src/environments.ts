import { parseArgs } from 'node:util'
import type { EnvironmentPlaceInput, EnvironmentSummary } from '@shiplog/schema'
import type { Env } from './ci-env.ts'
import type { ShiplogClient } from './client.ts'
import { connection } from './incident-args.ts'
import { describeError, exitCodeFor, type Output } from './notify.ts'
import { given, UsageError } from './notify-args.ts'
import { lacksScope } from './read-scope.ts'

/** What `shiplog environments list` or `set` was asked to do, checked and ready to send. */
export type EnvironmentsPlan = { url: string; apiKey: string } & (
  | { command: 'list' }
  | { command: 'set'; name: string; place: EnvironmentPlaceInput }
)

const OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  position: { type: 'string' },
  production: { type: 'boolean' },
  'not-production': { type: 'boolean' },
  'by-name': { type: 'boolean' },
} as const

const FLAG_OF_FIELD = { position: '--position', production: '--production' }

/** The place `set`'s flags ask for; a UsageError for none, or for flags that contradict. */
function placeOf(values: {
  position?: string
  production?: boolean
  'not-production'?: boolean
  'by-name'?: boolean
}): EnvironmentPlaceInput {
  if (values['by-name']) {
    if (values.position !== undefined || values.production || values['not-production']) {
      throw new UsageError('--by-name puts both back to the rule: pass it alone')
    }
    return { position: null, production: null }
  }
  if (values.production && values['not-production']) {
    throw new UsageError('--production and --not-production contradict: pass one')
  }
  const place: EnvironmentPlaceInput = {}
  if (values.position !== undefined) {
    const position = Number(values.position.trim())
    if (!/^\d{1,4}$/.test(values.position.trim()) || position > 1000) {
      throw new UsageError(
        `--position must be a whole number from 0 to 1000, got ${values.position}`,
      )
    }
    place.position = position
  }
  if (values.production) place.production = true
  if (values['not-production']) place.production = false
  if (Object.keys(place).length === 0) {
    throw new UsageError(
      'nothing to set: pass --position, --production, --not-production or --by-name',
    )
  }
  return place
}

/** Reads `shiplog environments list|set`'s flags; a UsageError names what is wrong. */
export function parseEnvironmentsArgs(args: string[], env: Env): EnvironmentsPlan {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] }
  try {
    parsed = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const values = parsed.values as Parameters<typeof placeOf>[0] & {
    url?: string
    'api-key'?: string
  }
  const [command, name, ...extra] = parsed.positionals
  const { url, apiKey, missing } = connection(values, env)
  if (command === 'list') {
    if (name !== undefined)
      throw new UsageError(`list takes no argument, got ${JSON.stringify(name)}`)
    if (!url || !apiKey) throw new UsageError(`missing ${missing.join(', ')}`)
    return { url, apiKey, command }
  }
  if (command === 'set') {
    if (!given(name)) missing.push('the environment (shiplog environments set <name>)')
    if (extra.length > 0) throw new UsageError(`set takes one environment, got ${extra.length + 1}`)
    const place = placeOf(values)
    if (!url || !apiKey || !given(name)) throw new UsageError(`missing ${missing.join(', ')}`)
    return { url, apiKey, command, name: given(name) as string, place }
  }
  throw new UsageError(
    command === undefined
      ? 'missing the subcommand: list or set'
      : `unknown subcommand ${JSON.stringify(command)}: list or set`,
  )
}

const line = (environment: EnvironmentSummary) =>
  `${String(environment.position).padStart(4)}  ${environment.production ? 'production' : '          '}  ${environment.environment}`

/** Lists the environments in pipeline order, or sets one's place and lists them after. */
export async function runEnvironments(
  plan: EnvironmentsPlan,
  client: ShiplogClient,
  output: Output,
): Promise<number> {
  try {
    if (plan.command === 'set') {
      const placed = await client.placeEnvironment(plan.name, plan.place)
      output.out(
        `${placed.environment}: position ${placed.position}, ${placed.production ? '' : 'not '}production.`,
      )
    }
    const listed = await client.listEnvironments().catch((error) => {
      // The change asked for is made; only the list after it needs more than environments:write.
      if (plan.command === 'set' && lacksScope(error)) return undefined
      throw error
    })
    if (listed === undefined) {
      output.out(
        'The environments are not listed: that needs the read scope, which this key has not got.',
      )
      return 0
    }
    for (const environment of listed.data) output.out(line(environment))
    return 0
  } catch (error) {
    for (const message of describeError(error, FLAG_OF_FIELD, 'environments')) output.err(message)
    return exitCodeFor(error)
  }
}
