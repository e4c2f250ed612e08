import { parseEnv } from '@shiplog/config'
import { type Static, Type } from '@sinclair/typebox'

/** The CLI's settings: with no DATABASE_URL it uses the embedded Postgres under `.data/`. */
export const CliEnv = Type.Object({
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      errorMessage: 'a postgres:// or postgresql:// URL',
      description:
        'Postgres URL; `keys` and `jobs` refuse a database not migrated to this build; unset, the embedded Postgres, migrated on the spot',
    }),
  ),
  JOB_RETRY_LIMIT: Type.Integer({
    minimum: 0,
    maximum: 100,
    default: 6,
    description:
      'Retries before a deployment job is dead-lettered; the migration step sets it on the queue',
  }),
  JOB_RETRY_DELAY_SECONDS: Type.Integer({
    minimum: 1,
    default: 5,
    description: 'First retry delay; doubles each time (with jitter)',
  }),
  JOB_RETRY_DELAY_MAX_SECONDS: Type.Integer({
    minimum: 1,
    default: 300,
    description: 'Cap on the retry delay',
  }),
})
export type CliEnv = Static<typeof CliEnv>

/** Reads and validates the CLI's configuration; throws naming every bad variable. */
export function loadCliEnv(source: Record<string, string | undefined>): CliEnv {
  return parseEnv(CliEnv, source)
}

/**
 * The API's settings that `bun run integrations` reads besides the CLI's: it seals secrets the API
 * must open and prints URLs the API answers at, so it runs where the API runs (its pod has them).
 * Apart from CliEnv so that the migration step, which shares CliEnv, is not offered them.
 */
export const IntegrationsSettings = Type.Object({
  INTEGRATION_SEALING_KEY: Type.Optional(
    Type.String({
      pattern: '^\\s*[A-Za-z0-9+/_-]{43}=?\\s*$',
      errorMessage: '32 random bytes in base64, e.g. the output of `openssl rand -base64 32`',
      description:
        "Seals the secrets of GitHub integrations: the API's own key, or the API cannot check their signatures. Unset, GitHub integrations cannot be created",
    }),
  ),
  INTEGRATION_SECRET_GRACE_SECONDS: Type.Integer({
    minimum: 0,
    default: 3600,
    description: 'After `rotate`, the previous secret is still accepted this long',
  }),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#\\s]+/?$',
      errorMessage: 'the scheme and host people open Shiplog at, e.g. https://shiplog.example.com',
      description:
        'Where people open Shiplog: the origin of the integration URLs printed. Unset: `--url-base`, else `http://localhost:$PORT`',
    }),
  ),
  PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 3000,
    description:
      "The API's port: without PUBLIC_URL or `--url-base`, the URLs' origin is `http://localhost:$PORT`",
  }),
})

/** `bun run integrations`' configuration: the CLI's, and the API's settings it shares. */
export const IntegrationsCliEnv = Type.Object({
  ...CliEnv.properties,
  ...IntegrationsSettings.properties,
})
export type IntegrationsCliEnv = Static<typeof IntegrationsCliEnv>

/** Reads and validates `bun run integrations`' configuration. */
export function loadIntegrationsCliEnv(
  source: Record<string, string | undefined>,
): IntegrationsCliEnv {
  return parseEnv(IntegrationsCliEnv, source)
}
