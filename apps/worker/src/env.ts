import { parseEnv } from '@shiplog/config'
import { type Static, Type } from '@sinclair/typebox'

/** Every setting of the worker, read from environment variables and nowhere else. */
export const WorkerEnv = Type.Object({
  DATABASE_URL: Type.String({
    pattern: '^postgres(ql)?://',
    errorMessage: 'a postgres:// or postgresql:// URL',
    description:
      'Postgres URL, e.g. postgres://user:pass@host:5432/shiplog; several hosts as libpq takes them (postgres://user:pass@h1:5432,h2:5432/shiplog): Shiplog writes only to whichever is the primary, and finds the new one after a failover ([High availability](operations.md#postgres-fails-over))',
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
  DORA_METRICS_ENABLED: Type.Boolean({
    default: false,
    description:
      "Export the DORA figures (7 and 28 days, per workspace and production or other environments) as gauges on the worker's `/metrics`",
  }),
  DORA_METRICS_INTERVAL_SECONDS: Type.Integer({
    minimum: 15,
    maximum: 3600,
    default: 300,
    description:
      'How often one worker replica computes the DORA gauges (the others read its figures)',
  }),
  DORA_METRICS_PER_APPLICATION: Type.Boolean({
    default: false,
    description:
      'Also export per-application DORA gauges, for the busiest `DORA_METRICS_TOP_APPLICATIONS` of each workspace',
  }),
  DORA_METRICS_TOP_APPLICATIONS: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 50,
    description:
      'Applications per workspace with DORA gauges of their own (the most deployments in 28 days); the rest are counted by `shiplog_dora_applications_truncated`',
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
