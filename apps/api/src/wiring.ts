import { createSql, processApplicationName } from '@shiplog/db/client'
import { reportPoolConnections } from '@shiplog/db/pool-gauge'
import { type CommitObserver, type CommitOutcome, DeploymentQueue } from '@shiplog/db/queue'
import { scrapeOf } from '@shiplog/ops-http'
import { type LogLine, logLine } from '@shiplog/ops-http/log'
import type { ApiEnv } from './env.ts'
import { createHttpApp } from './http-app.ts'
import { OidcClient } from './modules/access/oidc-client.ts'
import { signInSettingsOf } from './modules/access/sign-in-settings.ts'
import { Readiness } from './modules/health/readiness.ts'
import { wireIntegrations } from './modules/integrations/wiring.ts'
import { compressed } from './modules/web/compression.ts'
import { createApiMetrics } from './plugins/prometheus/index.ts'
import { noteAnsweredOutside } from './plugins/response-status/index.ts'
import { createReadPool } from './read-pool.ts'
import { clientAddressFrom } from './server/client-address.ts'
import { withDeadline } from './server/deadline.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// How each commit outcome is logged; the fault scenarios read these messages.
const COMMIT_LOG: Record<Exclude<CommitOutcome, 'ok'>, string> = {
  failed: 'queue commit failed; answered 503',
  confirmed: 'queue commit failed; committed after all; answered 202',
  unknown: 'queue commit failed; outcome unknown; answered 503 outcome-unknown',
}

/**
 * The API wired to its Postgres and queue, not yet serving: `lifecycle.ts` serves its `fetch`
 * and runs `start` and `shutdown`; tests call `fetch` directly.
 */
export function wireApi(env: ApiEnv, log: LogLine = logLine) {
  const applicationName = processApplicationName('shiplog-api')
  const sql = createSql(env.DATABASE_URL, {
    applicationName,
    maxConnections: env.DATABASE_POOL_SIZE,
    statementTimeoutMs: env.STATEMENT_TIMEOUT_MS,
  })
  const readPool = createReadPool(env, sql, applicationName)
  const { readSql } = readPool
  let queueReady = false
  const metrics = createApiMetrics()
  const observeCommit: CommitObserver = (batchSize, outcome, error) => {
    metrics.enqueueBatchSize.observe(batchSize)
    metrics.enqueueCommits.inc({ outcome })
    if (outcome !== 'ok') {
      log({ level: 'error', msg: COMMIT_LOG[outcome], batchSize, error: String(error) })
    }
  }
  const queue = new DeploymentQueue(sql, {
    url: env.DATABASE_URL,
    role: 'producer',
    applicationName: 'shiplog-api-queue',
    log,
    acceptance: {
      options: {
        maxBatchSize: env.ENQUEUE_BATCH_SIZE,
        maxWaitMs: env.ENQUEUE_BATCH_WAIT_MS,
        maxInFlight: env.ENQUEUE_MAX_IN_FLIGHT,
      },
      observe: observeCommit,
    },
  })
  /** Prometheus text for the METRICS_PORT listener, gauges (read, not counted) refreshed first. */
  const scrape = scrapeOf(metrics.registry, async () => {
    metrics.enqueueWaiting.set(queue.acceptanceDepth.waiting)
    await Promise.all([
      reportPoolConnections(sql, applicationName, metrics.dbConnections),
      readSql === sql
        ? undefined
        : reportPoolConnections(readSql, applicationName, metrics.dbReadConnections),
    ])
  })
  // Readiness asks the primary alone: a replica outage makes reads answer 503 but must not take
  // the pods, and so the writes (what pipelines depend on), out of service.
  const readiness = new Readiness(sql, () => (queueReady ? undefined : 'queue not started'))
  // The provider is asked on the first sign-in, never at start: its outage must not keep the API
  // (and the pipelines that post to it) from starting.
  const signIn = signInSettingsOf(env)
  const oidc = signIn.oidc && new OidcClient(signIn.oidc)
  const integrations = wireIntegrations(sql, {
    sealingKey: env.INTEGRATION_SEALING_KEY,
    publicUrl: env.PUBLIC_URL,
    graceSeconds: env.INTEGRATION_SECRET_GRACE_SECONDS,
    bodyMaxBytes: env.INTEGRATION_BODY_MAX_BYTES,
    bodyTimeoutMs: env.BODY_TIMEOUT_MS,
    ratePerMinute: env.INTEGRATION_RATE_LIMIT_PER_MINUTE,
    refused: (source, reason) => metrics.integrationRefusals.inc({ source, reason }),
  })
  const app = createHttpApp({
    integrations,
    sql,
    readSql,
    queue,
    readiness,
    rateLimit: {
      capacity: env.RATE_LIMIT_BURST ?? env.RATE_LIMIT_PER_MINUTE,
      perMinute: env.RATE_LIMIT_PER_MINUTE,
    },
    unauthenticatedRateLimit: {
      capacity: env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE,
      perMinute: env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE,
    },
    bodyLimits: { maxBytes: env.BODY_MAX_BYTES, timeoutMs: env.BODY_TIMEOUT_MS },
    reads: readPool.reads,
    receipts: readPool.receipts,
    clientAddress: clientAddressFrom(env.CLIENT_IP_HEADER),
    log,
    logRequests: env.LOG_REQUESTS,
    metrics,
    signIn,
    oidc,
  })

  // What the listener serves: the app, its pages compressed as the browser accepts, with an
  // answer for every request by its deadline.
  const serve = async (request: Request) => compressed(request, await app.fetch(request))
  const fetch = withDeadline(serve, env.REQUEST_TIMEOUT_MS, (request) => {
    noteAnsweredOutside(request, 503)
    log({
      level: 'warn',
      msg: 'request deadline passed; answered 503',
      method: request.method,
      path: new URL(request.url).pathname,
    })
  })

  let stopping = false

  /** Starts the queue, retrying while Postgres is unreachable or not yet migrated. */
  async function start(): Promise<void> {
    queueReady = await queue.start(() => stopping)
  }

  /**
   * Graceful stop: fail readiness, keep serving for `SHUTDOWN_DELAY_MS` while load balancers
   * notice, stop accepting, let in-flight requests get their commits, then close Postgres.
   */
  async function shutdown(stopListening: () => Promise<void>): Promise<void> {
    stopping = true
    readiness.markShuttingDown()
    await sleep(env.SHUTDOWN_DELAY_MS)
    await stopListening()
    await integrations.receiver.whenIdle()
    await queue.stop()
    await Promise.all([sql.end({ timeout: 5 }), readPool.end()])
  }

  return { app, fetch, sql, readSql, queue, readiness, metrics, scrape, start, shutdown }
}

/** The wired API. */
export type Api = ReturnType<typeof wireApi>
