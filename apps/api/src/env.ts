import { parseEnv } from '@shiplog/config'
import { type Static, Type } from '@sinclair/typebox'
import { SIGN_IN_SETTINGS } from './modules/access/sign-in-env.ts'
import { signInProblems } from './modules/access/sign-in-settings.ts'

/** Every setting of the API, read from environment variables and nowhere else. */
export const ApiEnv = Type.Object({
  DATABASE_URL: Type.String({
    pattern: '^postgres(ql)?://',
    errorMessage: 'a postgres:// or postgresql:// URL',
    description: 'Postgres URL, e.g. postgres://user:pass@host:5432/shiplog',
  }),
  // Unset (or empty), reads share DATABASE_URL with writes. Set, the read pool has
  // DATABASE_POOL_SIZE connections of its own, so reads no longer take the primary's.
  DATABASE_READ_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      errorMessage: 'a postgres:// or postgresql:// URL',
      description:
        'Postgres URL of a streaming replica of DATABASE_URL: the read endpoints query it; unset, everything uses DATABASE_URL',
    }),
  ),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  // `/metrics` only, on HOST too; never the public port. 0 binds any free port, as PORT does.
  METRICS_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 9091 }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 100 }),
  RATE_LIMIT_BURST: Type.Optional(Type.Integer({ minimum: 1 })),
  UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  ENQUEUE_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 5000, default: 500 }),
  ENQUEUE_BATCH_WAIT_MS: Type.Number({ minimum: 0, maximum: 100, default: 2 }),
  ENQUEUE_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 2, maximum: 200, default: 10 }),
  BODY_MAX_BYTES: Type.Integer({ minimum: 1024, default: 65_536 }),
  BODY_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
  STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 5_000 }),
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 200, default: 20_000 }),
  READ_CONCURRENCY_PER_KEY: Type.Integer({ minimum: 1, default: 2 }),
  IDLE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 255, default: 10 }),
  CLIENT_IP_HEADER: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9-]+$',
      errorMessage: 'a header name such as x-forwarded-for (letters, digits and dashes)',
    }),
  ),
  SHUTDOWN_DELAY_MS: Type.Integer({ minimum: 0, default: 0 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 20_000 }),
  LOG_REQUESTS: Type.Boolean({ default: true }),
  ...SIGN_IN_SETTINGS,
})
export type ApiEnv = Static<typeof ApiEnv>

// Timeouts nest so that every request gets an answer: a statement is cancelled before its
// request's deadline, and a body that stalls gets its 408 before the deadline too. The server's
// idle timer is raised past the deadline while a request is handled (see lib/listener.ts).
function nestingProblems(env: ApiEnv): string[] {
  const problems: string[] = []
  if (env.STATEMENT_TIMEOUT_MS >= env.REQUEST_TIMEOUT_MS) {
    problems.push(
      `STATEMENT_TIMEOUT_MS (${env.STATEMENT_TIMEOUT_MS}) must be less than REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS})`,
    )
  }
  if (env.BODY_TIMEOUT_MS >= env.REQUEST_TIMEOUT_MS) {
    problems.push(
      `BODY_TIMEOUT_MS (${env.BODY_TIMEOUT_MS}) must be less than REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS})`,
    )
  }
  return problems
}

// Metrics must not be served on the public listener, which the Ingress routes to.
function portProblems(env: ApiEnv): string[] {
  return env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT
    ? [`METRICS_PORT (${env.METRICS_PORT}) must differ from PORT`]
    : []
}

/** Reads and validates the API's configuration; throws naming every bad variable. */
export function loadApiEnv(source: Record<string, string | undefined>): ApiEnv {
  const env = parseEnv(ApiEnv, source)
  const problems = [...nestingProblems(env), ...portProblems(env), ...signInProblems(env)]
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`)
  }
  return env
}
