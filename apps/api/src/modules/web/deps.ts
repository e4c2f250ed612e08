import type { Sql } from '@shiplog/db/client'
import type { DeploymentQueue } from '@shiplog/db/queue'
import type { LogLine } from '@shiplog/ops-http/log'
import type { ReadSlots } from '../../kernel/read-slots.ts'
import type { KeyLookup } from '../../plugins/auth/index.ts'
import type { AddressLimiter } from '../../plugins/rate-limit/address-limiter.ts'
import type { ClientAddress } from '../../server/client-address.ts'
import type { OidcClient } from '../access/oidc-client.ts'
import type { SignInSettings } from '../access/sign-in-settings.ts'
import type { IntegrationSettings } from '../integrations/service.ts'

/**
 * What the dashboard needs of the app: the databases, the queue, the keys, the limits, and the
 * integrations' settings.
 */
export interface WebDeps {
  sql: Sql
  readSql: Sql
  queue: DeploymentQueue
  keys: KeyLookup
  signInAttempts: AddressLimiter
  clientAddress: ClientAddress
  reads: ReadSlots
  /** How people may sign in: keys, the OpenID provider, or both. */
  signIn: SignInSettings
  /** The OpenID provider's client, when single sign-on is on. */
  oidc: OidcClient | undefined
  log: LogLine
  /** What the integrations' pages need besides Postgres: the sealer, the public URL, the grace. */
  integrations: IntegrationSettings
}
