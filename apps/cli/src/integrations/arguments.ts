// `bun run integrations`' arguments, checked before the database is opened. What an integration
// may be (source, name, mapping) is the API's own check, validateIntegrationInput: its field
// errors become usage errors naming the flag.

import { UUID } from '@shiplog/schema'
import { type IntegrationInput, validateIntegrationInput } from '@shiplog/schema/integration'
import { UsageError } from '../command.ts'
import { type IntegrationsCliEnv, IntegrationsSettings } from '../env.ts'

const FLAG_OF_FIELD: Record<string, string> = { source: '--source', name: '--name' }

/** `create`'s flags as the API's body, checked by the API's rule; every bad field at once. */
export function integrationInput(flags: {
  source?: string
  name?: string
  mapping?: string
}): IntegrationInput {
  let mapping: unknown
  if (flags.mapping !== undefined) {
    try {
      mapping = JSON.parse(flags.mapping)
    } catch (error) {
      throw new UsageError(
        `--mapping must be JSON, e.g. '{"app": [{"from": "deployment.payload.service"}, "web"]}': ${(error as Error).message}`,
      )
    }
  }
  const checked = validateIntegrationInput({
    source: flags.source,
    name: flags.name,
    ...(mapping === undefined ? {} : { mapping }),
  })
  if (checked.ok) return checked.value
  throw new UsageError(
    checked.errors
      .map(({ field, message }) => `${FLAG_OF_FIELD[field] ?? `--mapping: ${field}`} ${message}`)
      .join('\n'),
  )
}

/** The one integration id a command names. */
export function integrationId(command: string, positionals: string[], workspace: string): string {
  const [id, ...extra] = positionals
  const listing = `bun run integrations list --workspace ${workspace} shows the ids`
  if (id === undefined) throw new UsageError(`${command} needs an integration id; ${listing}`)
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`)
  if (!UUID.test(id)) throw new UsageError(`"${id}" is not an integration id (a UUID); ${listing}`)
  return id.toLowerCase()
}

const PUBLIC_URL = IntegrationsSettings.properties.PUBLIC_URL

/**
 * The origin of the URLs printed when PUBLIC_URL is unset (the API's service prefers PUBLIC_URL):
 * `--url-base`, held to PUBLIC_URL's rule, else the API's port on this host.
 */
export function urlOrigin(env: IntegrationsCliEnv, urlBase: string | undefined): string {
  if (urlBase === undefined) return `http://localhost:${env.PORT}`
  if (env.PUBLIC_URL !== undefined) {
    throw new UsageError(
      `--url-base is for a server without PUBLIC_URL; this one prints its URLs under PUBLIC_URL (${env.PUBLIC_URL})`,
    )
  }
  if (!new RegExp(PUBLIC_URL.pattern as string).test(urlBase)) {
    throw new UsageError(`--url-base must be ${PUBLIC_URL.errorMessage}`)
  }
  return urlBase
}
