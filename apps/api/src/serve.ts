import type { ApiEnv } from './env.ts'
import { logLine } from './lib/log.ts'
import type { createApiServer } from './server.ts'

/**
 * Serves the API on `PORT` and stops it gracefully on SIGTERM or SIGINT: readiness fails, in-flight
 * requests get their commits, Postgres is closed, and the process exits 0 (1 past the timeout).
 */
export function serve(api: ReturnType<typeof createApiServer>, env: ApiEnv): void {
  // The idle timeout also cuts clients that trickle their headers in (slowloris).
  const server = api.app.listen({
    port: env.PORT,
    hostname: env.HOST,
    idleTimeout: env.IDLE_TIMEOUT_SECONDS,
  })
  logLine({ msg: 'api listening', port: server.server?.port, host: env.HOST })
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
      await server.stop(false)
    })
    clearTimeout(deadline)
    logLine({ msg: 'stopped' })
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}
