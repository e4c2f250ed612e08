import { parseEnv } from '@shiplog/config'
import { type Static, Type } from '@sinclair/typebox'

/** The CLI's settings: with no DATABASE_URL it uses the embedded Postgres under `.data/`. */
export const CliEnv = Type.Object({
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      errorMessage: 'a postgres:// or postgresql:// URL',
    }),
  ),
  JOB_RETRY_LIMIT: Type.Integer({ minimum: 0, maximum: 100, default: 6 }),
  JOB_RETRY_DELAY_SECONDS: Type.Integer({ minimum: 1, default: 5 }),
  JOB_RETRY_DELAY_MAX_SECONDS: Type.Integer({ minimum: 1, default: 300 }),
})
export type CliEnv = Static<typeof CliEnv>

/** Reads and validates the CLI's configuration; throws naming every bad variable. */
export function loadCliEnv(source: Record<string, string | undefined>): CliEnv {
  return parseEnv(CliEnv, source)
}
