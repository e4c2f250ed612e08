import type { Sql } from '@shiplog/db/client'
import type { DeploymentQueue } from '@shiplog/db/queue'
import type { LogLine } from '@shiplog/ops-http/log'
import { Elysia } from 'elysia'
import type { ReadSlots } from './kernel/read-slots.ts'
import type { OidcClient } from './modules/access/oidc-client.ts'
import type { SignInSettings } from './modules/access/sign-in-settings.ts'
import { cliRoutes } from './modules/cli/index.ts'
import { docsRoutes } from './modules/docs/index.ts'
import { healthRoutes } from './modules/health/index.ts'
import type { Readiness } from './modules/health/readiness.ts'
import { receiverRoutes } from './modules/integrations/receiver.ts'
import type { WiredIntegrations } from './modules/integrations/wiring.ts'
import { webRoutes } from './modules/web/index.ts'
import { auth } from './plugins/auth/index.ts'
import { KeyStore } from './plugins/auth/key-store.ts'
import { problemDetails } from './plugins/problem/index.ts'
import { type ApiMetrics, prometheus } from './plugins/prometheus/index.ts'
import { AddressLimiter } from './plugins/rate-limit/address-limiter.ts'
import { rateLimit } from './plugins/rate-limit/index.ts'
import { LeasedRateLimiter, postgresLeases } from './plugins/rate-limit/leased-limiter.ts'
import type { BucketShape } from './plugins/rate-limit/token-bucket.ts'
import { requestLog } from './plugins/request-log/index.ts'
import type { BodyLimits } from './route-table/json-body.ts'
import { registerRoutes } from './route-table/register.ts'
import { API_ROUTES, methodsAt } from './routes.ts'
import type { ClientAddress } from './server/client-address.ts'

/** Everything the HTTP app needs, built by `wiring.ts` (or a test). */
export interface HttpAppDeps {
  sql: Sql
  /** Where the read endpoints query: a streaming replica, or `sql` itself without one. */
  readSql: Sql
  queue: DeploymentQueue
  readiness: Readiness
  rateLimit: BucketShape
  unauthenticatedRateLimit: BucketShape
  bodyLimits: BodyLimits
  /** Bounds concurrent reads, per key and in all. */
  reads: ReadSlots
  /** Bounds concurrent receipts, which may read the primary; `reads` itself without a replica. */
  receipts: ReadSlots
  clientAddress: ClientAddress
  log: LogLine
  logRequests: boolean
  metrics: ApiMetrics
  /** Integrations: the endpoints' settings and the receiver. */
  integrations: WiredIntegrations
  /** How people sign in to the dashboard. */
  signIn: SignInSettings
  oidc: OidcClient | undefined
}

/**
 * The Shiplog HTTP API as an Elysia app: plugins check a request (`plugins/`), the route table
 * (`route-table/`) checks it against its route's contract, and modules answer it (`modules/`).
 * No sockets and no process: `wiring.ts` builds it, `lifecycle.ts` serves it.
 */
export function createHttpApp(deps: HttpAppDeps) {
  const reportUnexpected = (error: unknown) =>
    deps.log({
      level: 'error',
      msg: 'unexpected error',
      error: String((error as Error)?.stack ?? error),
    })
  const rateLimited = (limit: 'key' | 'address') => () => deps.metrics.rateLimited.inc({ limit })
  const keys = new KeyStore(deps.sql, reportUnexpected)
  const authenticated = auth(
    keys,
    new AddressLimiter(deps.unauthenticatedRateLimit),
    deps.clientAddress,
    rateLimited('address'),
  )
  const limited = rateLimit(
    authenticated,
    new LeasedRateLimiter(postgresLeases(deps.sql)),
    deps.rateLimit,
    rateLimited('key'),
  )
  const { integrations } = deps
  // Elysia otherwise finds the path by assuming a host of four characters or more, which
  // misroutes requests with a short Host header under its web-standard (Deno) handler.
  return (
    new Elysia({ handler: { standardHostname: false } })
      .use(requestLog(deps.logRequests ? deps.log : undefined))
      .use(prometheus(deps.metrics))
      .use(problemDetails(reportUnexpected, methodsAt))
      .use(healthRoutes(deps.readiness))
      .use(docsRoutes(API_ROUTES))
      // The CLI for pipelines: no key, no database.
      .use(cliRoutes())
      // Senders prove themselves with their integration's secret, not a key.
      .use(receiverRoutes(integrations.receiver))
      .use(
        webRoutes({
          sql: deps.sql,
          readSql: deps.readSql,
          queue: deps.queue,
          keys,
          signInAttempts: new AddressLimiter(deps.unauthenticatedRateLimit),
          clientAddress: deps.clientAddress,
          reads: deps.reads,
          signIn: deps.signIn,
          oidc: deps.oidc,
          log: deps.log,
          integrations: integrations.settings,
        }),
      )
      .use(
        registerRoutes(API_ROUTES, {
          clients: { replica: deps.readSql, primary: deps.sql },
          queue: deps.queue,
          reads: deps.reads,
          receipts: deps.receipts,
          integrations: integrations.settings,
          bodyLimits: deps.bodyLimits,
          authenticated,
          limited,
        }),
      )
  )
}

/** The app's type, for tests and for Eden clients. */
export type HttpApp = ReturnType<typeof createHttpApp>
