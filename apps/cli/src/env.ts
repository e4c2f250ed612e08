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
