import { serveOperational, stopOperational } from '@shiplog/ops-http'
import type { ApiEnv } from './env.ts'
import { logLine } from './lib/log.ts'
import { listen, runtime } from './lib/runtime-server.ts'
import type { createApiServer } from './server.ts'

/**
 * Serves the API on `PORT` and its Prometheus metrics on `METRICS_PORT` (a listener of its own,
 * never routed publicly), and stops gracefully on SIGTERM or SIGINT: readiness fails, in-flight
 * requests get their commits, Postgres is closed, and the process exits 0 (1 past the timeout).
 * Runs under Bun and under Deno (`deno run -A apps/api/src/main.ts`).
 */
export function serve(api: ReturnType<typeof createApiServer>, env: ApiEnv): void {
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

  let shuttingDown = false
  async function stop(signal: string) {
    if (shuttingDown) return
    shuttingDown = true
    logLine({ msg: 'shutting down', signal })
    const deadline = setTimeout(() => {
      logLine({ level: 'error', msg: 'shutdown timed out; exiting' })
      process.exit(1)
    }, env.SHUTDOWN_TIMEOUT_MS)
    await api.shutdown(async () => {
      await Promise.all([server.stop(), metricsServer.then(stopOperational)])
    })
    clearTimeout(deadline)
    logLine({ msg: 'stopped' })
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}
