import { parseEnv } from '@shiplog/schema/env'
import { type Static, Type } from '@sinclair/typebox'

/** Every setting of the API, read from environment variables and nowhere else. */
export const ApiEnv = Type.Object({
  DATABASE_URL: Type.String({
    pattern: '^postgres(ql)?://',
    description: 'Postgres URL, e.g. postgres://user:pass@host:5432/shiplog',
  }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 100 }),
  RATE_LIMIT_BURST: Type.Optional(Type.Integer({ minimum: 1 })),
  UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  ENQUEUE_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 5000, default: 500 }),
  ENQUEUE_BATCH_WAIT_MS: Type.Number({ minimum: 0, maximum: 100, default: 2 }),
  ENQUEUE_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 2, maximum: 200, default: 10 }),
  BODY_MAX_BYTES: Type.Integer({ minimum: 1024, default: 65_536 }),
  BODY_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
  IDLE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 255, default: 10 }),
  CLIENT_IP_HEADER: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]+$' })),
  SHUTDOWN_DELAY_MS: Type.Integer({ minimum: 0, default: 0 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 20_000 }),
  LOG_REQUESTS: Type.Boolean({ default: true }),
})
export type ApiEnv = Static<typeof ApiEnv>

/** Reads and validates the API's configuration; throws naming every bad variable. */
export function loadApiEnv(source: Record<string, string | undefined>): ApiEnv {
  return parseEnv(ApiEnv, source)
}
