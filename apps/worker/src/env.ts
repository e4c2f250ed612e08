import { parseEnv } from '@shiplog/config'
import { type Static, Type } from '@sinclair/typebox'

/** Every setting of the worker, read from environment variables and nowhere else. */
export const WorkerEnv = Type.Object({
  DATABASE_URL: Type.String({
    pattern: '^postgres(ql)?://',
    errorMessage: 'a postgres:// or postgresql:// URL',
    description: 'Postgres URL, e.g. postgres://user:pass@host:5432/shiplog',
  }),
  WORKER_BATCH_SIZE: Type.Integer({
    minimum: 1,
    maximum: 5000,
    default: 500,
    description: 'Jobs fetched and recorded per transaction',
  }),
  WORKER_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 32,
    default: 2,
    description: 'Batches in flight at once (the pool holds as many connections, and 2 more)',
  }),
  WORKER_POLL_INTERVAL_MS: Type.Integer({
    minimum: 10,
    maximum: 60_000,
    default: 200,
    description: 'Pause between polls when the queue is empty',
  }),
  WORKER_PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 9090,
    description: "HTTP port of the worker's `/healthz`, `/readyz` and `/metrics`",
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 0,
    default: 20_000,
    description: 'Hard stop if the batch in hand takes longer',
  }),
})
export type WorkerEnv = Static<typeof WorkerEnv>

/** Reads and validates the worker's configuration; throws naming every bad variable. */
export function loadWorkerEnv(source: Record<string, string | undefined>): WorkerEnv {
  return parseEnv(WorkerEnv, source)
}
