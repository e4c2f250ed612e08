import { serveOperational, stopOperational } from '@shiplog/ops-http'
import { logLine } from '@shiplog/ops-http/log'
import { stopOnSignals } from '@shiplog/ops-http/shutdown'
import type { ApiEnv } from './env.ts'
import { listen, runtime } from './server/listener.ts'
import type { Api } from './wiring.ts'

/**
 * Runs the wired API as a process: serves it on `PORT` and its Prometheus metrics on
 * `METRICS_PORT` (a listener of its own, never routed publicly), starts the queue producer, and
 * stops gracefully on SIGTERM or SIGINT: readiness fails, in-flight requests get their commits,
 * Postgres is closed, and the process exits 0 (1 past SHUTDOWN_TIMEOUT_MS).
 * Runs under Bun and under Deno (`deno run -A apps/api/src/main.ts`).
 */
export function runApi(api: Api, env: ApiEnv): void {
  const server = listen(api.fetch, {
    port: env.PORT,
    hostname: env.HOST,
    idleTimeoutSeconds: env.IDLE_TIMEOUT_SECONDS,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    onListen: ({ port }) => logLine({ msg: 'api listening', port, host: env.HOST, runtime }),
  })
  const metricsServer = serveOperational(env.METRICS_PORT, { metrics: api.scrape }, env.HOST).then(
    (listening) => {
      const address = listening.address()
      const port = typeof address === 'object' && address ? address.port : env.METRICS_PORT
      logLine({ msg: 'metrics listening', port, host: env.HOST })
      return listening
    },
    (error) => {
      logLine({
        level: 'error',
        msg: 'metrics listener failed',
        port: env.METRICS_PORT,
        error: String(error),
      })
      process.exit(1)
    },
  )
  void api.start().then(() => logLine({ msg: 'queue producer started' }))

  stopOnSignals(
    () =>
      api.shutdown(async () => {
        await Promise.all([server.stop(), metricsServer.then(stopOperational)])
      }),
    { timeoutMs: env.SHUTDOWN_TIMEOUT_MS, log: logLine },
  )
}
